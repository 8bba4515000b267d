// `npm run make:blueprints [-- --app <id>] [--version <n>] [--out <folder>]`: writes each job's
// scenario blueprint (templates/<job>/make.blueprint.json) for the name the app has in your Make
// account: the MAKE_APP_NAME and MAKE_APP_VERSION `npm run make:deploy` deployed it with.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_APP_NAME, makeTemplates, type Target } from './blueprints.ts';

export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url));
export const BLUEPRINT_FILE = 'make.blueprint.json';

/** The blueprint files for `target`, by path under the templates folder. */
export function blueprintFiles(target: Target): Map<string, string> {
  return new Map(Object.entries(makeTemplates).map(([job, build]) => [join(job, BLUEPRINT_FILE), `${JSON.stringify(build(target), null, 2)}\n`]));
}

export function writeBlueprints(target: Target, folder = TEMPLATES_DIR): string[] {
  return [...blueprintFiles(target)].map(([path, text]) => {
    const file = join(folder, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    return file;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      app: { type: 'string', default: process.env['MAKE_APP_NAME'] ?? DEFAULT_APP_NAME },
      version: { type: 'string', default: process.env['MAKE_APP_VERSION'] ?? '1' },
      out: { type: 'string', default: TEMPLATES_DIR },
    },
  });
  const appVersion = Number(values.version);
  if (!/^[a-z0-9-]+$/.test(values.app) || !Number.isInteger(appVersion) || appVersion < 1) {
    console.error('Usage: npm run make:blueprints -- [--app <the app id in Make, e.g. pagerly-acme>] [--version <1, 2, …>] [--out <folder>]');
    process.exit(2);
  }
  for (const file of writeBlueprints({ appName: values.app, appVersion }, values.out)) console.log(`wrote ${file}`);
}
