import { chmodSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import rootPackage from '../package.json' with { type: 'json' };
import mcpServer from '../server.json' with { type: 'json' };
import { MIT_LICENSE } from '../surfaces/license.ts';
import { REQUIRE_IN_ESM_BANNER } from '../surfaces/npm-package.ts';

/** Where `npm run build` writes the CLI package (`pagerly`, and `pagerly mcp` for MCP hosts). */
export const cliPackageDir = fileURLToPath(new URL('../dist/cli/', import.meta.url));
export const CLI_PACKAGE = '@pagerly/cli';

const bin = fileURLToPath(new URL('../bin/pagerly.js', import.meta.url));

export function cliPackageJson() {
  return {
    name: CLI_PACKAGE,
    version: rootPackage.version,
    description: 'Pagerly from the command line: who is on call, incidents, the on-call directory, and an MCP server (pagerly mcp).',
    license: 'MIT',
    keywords: ['pagerly', 'on-call', 'incident', 'cli', 'mcp'],
    repository: { type: 'git', url: 'git+https://github.com/pagerly/pagerly-connectors.git', directory: 'cli' },
    type: 'module',
    bin: { pagerly: 'bin/pagerly.js' },
    files: ['bin', 'lib'],
    // undici 8 (bundled, for proxies) needs 22.19.
    engines: { node: '>=22.19' },
    // The MCP registry accepts server.json's npm entry only if the published package names the
    // server back: it reads mcpName from the package and refuses the entry when it differs.
    mcpName: mcpServer.name,
  };
}

const README = `# @pagerly/cli

Pagerly from the command line: who is on call, incidents, the on-call directory; and
\`pagerly mcp\`, an MCP server for AI assistants. Node 22.19 or later.

\`\`\`sh
npm install -g ${CLI_PACKAGE}            # then: pagerly --help
PAGERLY_API_KEY=... npx -y ${CLI_PACKAGE} on-call --team Platform
npx -y ${CLI_PACKAGE} mcp                # what an MCP host runs
\`\`\`

Behind a proxy, set \`HTTPS_PROXY\` (and \`NO_PROXY\`); a private CA goes in \`NODE_EXTRA_CA_CERTS\`.
Guide: https://github.com/pagerly/pagerly-connectors/blob/main/docs/cli.md
`;

/**
 * The CLI as plain JavaScript with no dependencies: bin/pagerly.js and each command's code in
 * its own chunk under lib/ (main.ts imports commands dynamically), so a command loads only
 * what it runs. CommonJS libraries inside ES modules need a \`require\`: each chunk gets one.
 * lib/ sits beside package.json, where main.ts looks for the version (\`../package.json\`).
 */
export async function buildCliPackage(
  folder = cliPackageDir,
): Promise<{ folder: string; files: number; bytes: number; startBytes: number; metafile: Metafile }> {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const result = await build({
    entryPoints: { 'bin/pagerly': bin },
    outdir: folder,
    chunkNames: 'lib/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // bin/pagerly.js then asks for the package's Node (22.19) and speaks to someone without a checkout.
    define: { PAGERLY_PACKAGE: 'true' },
    banner: REQUIRE_IN_ESM_BANNER,
    // Less to parse at each start; names kept, since errors are named after their class.
    minify: true,
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  chmodSync(join(folder, 'bin/pagerly.js'), 0o755);
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(cliPackageJson(), null, 2)}\n`);
  writeFileSync(join(folder, 'README.md'), README);
  writeFileSync(join(folder, 'LICENSE'), MIT_LICENSE);
  const all = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((file) => file.isFile());
  const bytes = all.reduce((sum, file) => sum + statSync(join(file.parentPath, file.name)).size, 0);
  const startBytes = bytesBeforeACommand(result.metafile);
  return { folder, files: all.length, bytes, startBytes, metafile: result.metafile };
}

/** What every run reads before it knows its command: the launcher, main.ts and what they import statically. */
function bytesBeforeACommand(metafile: Metafile): number {
  const { outputs } = metafile;
  const main = Object.keys(outputs).find((key) => Object.hasOwn(outputs[key]!.inputs, 'cli/main.ts'))!;
  const bin = Object.keys(outputs).find((key) => key.endsWith('bin/pagerly.js'))!;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of outputs[key]!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(bin);
  visit(main);
  return [...seen].reduce((sum, key) => sum + outputs[key]!.bytes, 0);
}
