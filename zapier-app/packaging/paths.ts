import { fileURLToPath } from 'node:url';

/** Where the Zapier app is staged and built: `dist/zapier`, outside the sources. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const stageDir = fileURLToPath(new URL('../../dist/zapier/', import.meta.url));
export const entryPoint = fileURLToPath(new URL('../index.ts', import.meta.url));
export const buildZip = `${stageDir}build/build.zip`;
/** The committed link to the registered Zapier app, if any (see README: publishing). */
export const linkFile = fileURLToPath(new URL('../.zapierapprc', import.meta.url));
/** The user's own settings for `zapier-platform invoke` (gitignored); dist/zapier/.env links to it. */
export const userEnvFile = fileURLToPath(new URL('../.env', import.meta.url));
