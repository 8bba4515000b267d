import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Metafile } from 'esbuild';
import { buildCliPackage } from '../../cli/build-cli-package.ts';

/**
 * The CLI package as built (npm run smoke installs and runs it from its tarball): plain
 * JavaScript, no dependencies, and each command's code in chunks that only that command loads.
 */
let folder: string;
let metafile: Metafile;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-cli-package-'));
  ({ metafile } = await buildCliPackage(folder));
}, 60_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const outputKey = (path: string) => Object.keys(metafile.outputs).find((key) => key.endsWith(path))!;

/** Every output a module loads before it runs (static imports, followed), itself included. */
function staticClosure(start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of metafile.outputs[key]!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(start);
  return seen;
}

const inputsOf = (outputs: Iterable<string>) => [...outputs].flatMap((key) => Object.keys(metafile.outputs[key]!.inputs));
const outputHolding = (input: string) => Object.keys(metafile.outputs).find((key) => Object.hasOwn(metafile.outputs[key]!.inputs, input))!;

describe('the CLI package', () => {
  it('is plain JavaScript with no dependencies, bin/pagerly.js and lib/', () => {
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: '@pagerly/cli', bin: { pagerly: 'bin/pagerly.js' }, type: 'module' });
    expect(pkg.dependencies).toBeUndefined();
    const files = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
    expect(files.filter((path) => !/^(bin|lib)\/[\w-]+\.js$/.test(path)).toSorted()).toEqual(['LICENSE', 'README.md', 'package.json']);
    // It declares MIT, whose terms ask for the notice in every copy; npm packs LICENSE whatever
    // `files` says (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#files).
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(folder, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} Pagerly\n/);
    expect(readFileSync(join(folder, 'bin/pagerly.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  it('loads, before a command is chosen, nothing of the catalog, zod, the MCP SDK, the CSV reader, undici or any command', () => {
    const main = outputHolding('cli/main.ts');
    const loaded = inputsOf(staticClosure(main));
    expect(loaded).toContain('node_modules/commander/lib/command.js');
    expect(loaded.filter((input) => /zod|shared\/catalog|modelcontextprotocol|csv-parse|undici|cli\/commands\//.test(input))).toEqual([]);
    // The launcher itself imports main only when it runs.
    expect(staticClosure(outputKey('bin/pagerly.js')).has(main)).toBe(false);
  });

  it.each(['check', 'teams', 'on-call', 'incident', 'directory', 'mcp'])('loads `%s` only when that command runs', (name) => {
    const own = outputHolding(`cli/commands/${name}.ts`);
    const others = ['check', 'teams', 'on-call', 'incident', 'directory', 'mcp'].filter((other) => other !== name);
    for (const other of others) expect(staticClosure(outputHolding(`cli/commands/${other}.ts`)).has(own)).toBe(false);
    expect(staticClosure(outputHolding('cli/main.ts')).has(own)).toBe(false);
  });

  it('prints its version from its own package.json, on the project Node, with nothing on stderr', async () => {
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(process.execPath, [join(folder, 'bin/pagerly.js'), '--version'], { env: { PATH: process.env.PATH ?? '' } }, (error, out, err) =>
        error ? reject(error) : resolve({ stdout: out, stderr: err }),
      ),
    );
    expect(stdout.trim()).toBe(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version);
    expect(stderr).toBe('');
  });

  // The package bundles undici 8 (Node 22.19 and later) and is run by people without a checkout:
  // an older Node is told the package's own minimum, and not about this repository's npm exec.
  it.each(['22.18.0', '20.20.2'])('on Node %s: the package asks for 22.19, says what to do, exit 1', async (version) => {
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    expect(pkg.engines).toEqual({ node: '>=22.19' });
    const spoof = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`;
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', spoof, join(folder, 'bin/pagerly.js'), '--version'],
        { env: { PATH: process.env.PATH ?? '' } },
        (error, out, err) => resolve({ code: error ? Number(error.code) : 0, stdout: out, stderr: err }),
      ),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`pagerly needs Node.js 22.19 or later; this is Node ${version}.`);
    expect(r.stderr).toContain('Install a newer Node');
    expect(r.stderr).not.toContain('this repository');
  });
});
