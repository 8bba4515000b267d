import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import rootPackage from '../package.json' with { type: 'json' };
import { endpoints } from '../shared/catalog/endpoints.ts';
import { operations } from '../shared/operations/index.ts';
import { MIT_LICENSE } from '../surfaces/license.ts';
import { CLIENT_PACKAGE, writeClientDeclarations } from './declarations.ts';
import { ZOD_NOTICE } from './vendor-zod.ts';
import { operationsPage } from './operation-names.ts';

/** Where `npm run build` writes the client package, ready to pack or publish. */
export const clientPackageDir = fileURLToPath(new URL('../dist/client/', import.meta.url));
export { CLIENT_PACKAGE } from './declarations.ts';

const entry = fileURLToPath(new URL('./index.ts', import.meta.url));

/**
 * undici, loaded only on Node behind a proxy, is the one dependency. zod is inside: the code the
 * client uses of zod/mini is bundled into index.js, and the declarations zod/mini's types need
 * are copied beside the client's own (vendor-types.ts), since they name them (each method's
 * input and output): zod whole would install 8 MB for a few hundred KB.
 */
const RUNTIME_DEPENDENCIES = ['undici'] as const;

export function clientPackageJson() {
  const dependencies = Object.fromEntries(RUNTIME_DEPENDENCIES.map((name) => [name, rootPackage.dependencies[name]]));
  return {
    name: CLIENT_PACKAGE,
    version: rootPackage.version,
    description: 'Typed client for the Pagerly on-call and incident API, on fetch: Node 22.19 and later, Bun, Deno.',
    license: 'MIT',
    keywords: ['pagerly', 'on-call', 'incident', 'api-client'],
    repository: { type: 'git', url: 'git+https://github.com/pagerly/pagerly-connectors.git', directory: 'client' },
    type: 'module',
    exports: { '.': { types: './types/client/index.d.ts', default: './index.js' }, './package.json': './package.json' },
    types: './types/client/index.d.ts',
    files: ['index.js', 'types', 'OPERATIONS.md'],
    sideEffects: false,
    // undici 8, for proxies on Node, needs 22.19.
    engines: { node: '>=22.19' },
    dependencies,
  };
}

const README = `# @pagerly/client

A typed client for the Pagerly on-call and incident API, on \`fetch\`: Node 22.19 and later,
Bun and Deno. One method per endpoint; every failure is one typed error.

\`\`\`sh
npm install ${CLIENT_PACKAGE}
\`\`\`

\`\`\`ts
import { createClient } from '${CLIENT_PACKAGE}';

const pagerly = createClient({ apiKey: process.env.PAGERLY_API_KEY! });
const teams = await pagerly.listTeams();
\`\`\`

Behind a proxy, set \`HTTPS_PROXY\` (and \`NO_PROXY\`); a private CA goes in \`NODE_EXTRA_CA_CERTS\` on Node.
What each operation of the Zapier, Make and n8n apps calls: OPERATIONS.md.
Settings, errors and guarantees: https://github.com/pagerly/pagerly-connectors/blob/main/docs/client.md
`;

/**
 * The client package: the entry bundled to one ES module (shared/ and zod/mini inside it,
 * undici outside), declarations by tsc from the same sources with zod's own beside them, a
 * package.json with an `exports` map.
 */
export async function buildClientPackage(folder = clientPackageDir): Promise<{ folder: string; files: number; bytes: number }> {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  await build({
    entryPoints: [entry],
    outfile: join(folder, 'index.js'),
    bundle: true,
    // Neutral: no Node built-in may sneak in, since Bun and Deno run it too.
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    external: [...RUNTIME_DEPENDENCIES],
    // Less to install and to parse; names kept, since errors are named after their class.
    minify: true,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  writeClientDeclarations(join(folder, 'types'));
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(clientPackageJson(), null, 2)}\n`);
  writeFileSync(join(folder, 'README.md'), README);
  writeFileSync(join(folder, 'LICENSE'), `${MIT_LICENSE}${ZOD_NOTICE}`);
  writeFileSync(join(folder, 'OPERATIONS.md'), operationsPage({ operations, endpoints }));
  const all = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((file) => file.isFile());
  const bytes = all.reduce((sum, file) => sum + statSync(join(file.parentPath, file.name)).size, 0);
  return { folder, files: all.length, bytes };
}
