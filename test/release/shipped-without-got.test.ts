import { describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import rootPackage from '../../package.json' with { type: 'json' };
import { cliPackageJson } from '../../cli/build-cli-package.ts';
import { clientPackageJson } from '../../client/build-client-package.ts';
import { sandboxPackageJson } from '../../sandbox/package/build-sandbox-package.ts';
import { actionPackageJson } from '../../github-action/generator/generate.ts';
import { packageJson as n8nPackageJson } from '../../n8n-app/generator/package-files.ts';
import { appPackage as zapierAppPackage } from '../../zapier-app/packaging/app-package.ts';

/**
 * got is the checkout's HTTP client for the recordings, the tests, the bench and the e2e, not a
 * runtime dependency: everything that ships sends through fetch (the CLI, `pagerly mcp`, the
 * client, the Action) or the platform's own client (Zapier's z.request, n8n's httpRequest). Each
 * shipped entry is followed through every import, static or dynamic, as its build follows it,
 * and none may reach got or the got transport; no shipped package.json may name it.
 */
const entries = {
  'the CLI and pagerly mcp (dist/cli)': '../../bin/pagerly.js',
  'the client (dist/client)': '../../client/index.ts',
  'the sandbox command (dist/sandbox)': '../../sandbox/cli.ts',
  'the in-process sandbox (dist/sandbox)': '../../sandbox/package/index.ts',
  'the Zapier app (dist/zapier)': '../../zapier-app/index.ts',
  'the n8n runtime (dist/n8n)': '../../n8n-app/runtime/index.ts',
  'the GitHub Action (dist/action)': '../../github-action/runtime/index.ts',
} as const;

/** Every package a build of `entry` imports, and every file of the project it takes in. */
async function importsOf(entry: string): Promise<{ packages: Set<string>; files: string[] }> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    define: { PAGERLY_PACKAGE: 'true' },
    logLevel: 'silent',
  });
  const inputs = Object.values(result.metafile.inputs);
  const packages = new Set(inputs.flatMap((input) => input.imports.filter((imported) => imported.external).map((imported) => imported.path)));
  return { packages, files: Object.keys(result.metafile.inputs) };
}

describe('nothing that ships needs got', () => {
  it.each(Object.entries(entries))('%s imports neither got nor the got transport', async (_name, entry) => {
    const { packages, files } = await importsOf(entry);
    expect(files.length).toBeGreaterThan(10);
    expect([...packages].filter((name) => name === 'got' || name.startsWith('got/'))).toEqual([]);
    expect(files.filter((file) => /(got-transport|node-client)\.ts$/.test(file))).toEqual([]);
  });

  it('is named by no shipped package.json, and by the repository only for its development', () => {
    for (const pkg of [cliPackageJson(), clientPackageJson(), sandboxPackageJson(), n8nPackageJson(), zapierAppPackage(), actionPackageJson()]) {
      const named = ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) =>
        Object.keys((pkg as unknown as Record<string, Record<string, string> | undefined>)[field] ?? {}),
      );
      expect({ name: pkg.name, got: named.includes('got') }).toEqual({ name: pkg.name, got: false });
    }
    expect(Object.keys(rootPackage.dependencies)).not.toContain('got');
    expect(Object.keys(rootPackage.devDependencies)).toContain('got');
  });
});
