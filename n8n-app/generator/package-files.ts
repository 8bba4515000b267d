import rootPackage from '../../package.json' with { type: 'json' };
import { TOOL_VERSIONS } from '../engine/cache.ts';
import { ACTION_NODE, CREDENTIAL, PACKAGE_NAME, REPOSITORY, TRIGGER_NODE } from '../names.ts';
import { DOCUMENTATION_URL } from './descriptions.ts';

/**
 * Where each file goes inside the package, as `n8n-node new` lays a package out: TypeScript
 * sources under nodes/ and credentials/, the JavaScript n8n loads under dist/ at the same paths.
 */
export const paths = {
  actionSource: `nodes/${ACTION_NODE.className}/${ACTION_NODE.className}.node.ts`,
  triggerSource: `nodes/${TRIGGER_NODE.className}/${TRIGGER_NODE.className}.node.ts`,
  credentialSource: `credentials/${CREDENTIAL.className}.credentials.ts`,
  /** The runtime both nodes call: n8n-app/runtime/ and shared/ bundled, with its types. */
  runtimeJs: 'nodes/shared/runtime.js',
  runtimeTypes: 'nodes/shared/runtime.d.ts',
  actionJs: `dist/nodes/${ACTION_NODE.className}/${ACTION_NODE.className}.node.js`,
  triggerJs: `dist/nodes/${TRIGGER_NODE.className}/${TRIGGER_NODE.className}.node.js`,
  credentialJs: `dist/credentials/${CREDENTIAL.className}.credentials.js`,
  distRuntimeJs: 'dist/nodes/shared/runtime.js',
} as const;

/**
 * package.json as `n8n-node new` writes it and n8n's community-package rules want it: the
 * `n8n-nodes-` name, the `n8n-community-node-package` keyword, the repository (npm provenance
 * names it, and n8n requires provenance of verified nodes), n8n-node's build, lint and release
 * scripts, the `n8n` field listing the compiled nodes and credential, only `dist/` published,
 * and no dependencies: shared/ and zod are bundled into the runtime, and n8n-workflow is the
 * engine's own (a peer dependency, and a dev dependency for its types).
 */
export function packageJson() {
  return {
    name: PACKAGE_NAME,
    version: rootPackage.version,
    description: 'Pagerly nodes for n8n: a polling trigger on on-call changes, and incidents, directory and who-is-on-call operations.',
    license: 'MIT',
    homepage: DOCUMENTATION_URL,
    keywords: ['n8n-community-node-package', 'n8n', 'pagerly', 'on-call', 'incident'],
    author: { name: 'Pagerly', email: 'support@pagerly.io' },
    repository: REPOSITORY,
    engines: { node: '>=22' },
    scripts: {
      build: 'n8n-node build',
      'build:watch': 'tsc --watch',
      dev: 'n8n-node dev',
      lint: 'n8n-node lint',
      'lint:fix': 'n8n-node lint --fix',
      release: 'n8n-node release',
      prepublishOnly: 'n8n-node prerelease',
    },
    files: ['dist'],
    n8n: {
      n8nNodesApiVersion: 1,
      strict: true,
      credentials: [paths.credentialJs],
      nodes: [paths.actionJs, paths.triggerJs],
    },
    devDependencies: {
      '@n8n/node-cli': TOOL_VERSIONS['@n8n/node-cli'],
      eslint: '9.29.0',
      'n8n-workflow': rootPackage.devDependencies['n8n-workflow'],
      prettier: '3.6.2',
      'release-it': '19.0.4',
      typescript: '5.9.2',
    },
    peerDependencies: { 'n8n-workflow': '*' },
  };
}

/** The codex file beside each node: how n8n's node panel files it. */
export function codex(nodeName: string) {
  return {
    node: `${PACKAGE_NAME}.${nodeName}`,
    nodeVersion: '1.0',
    codexVersion: '1.0',
    categories: ['Development', 'Productivity'],
    resources: { primaryDocumentation: [{ url: DOCUMENTATION_URL }], credentialDocumentation: [{ url: DOCUMENTATION_URL }] },
  };
}

/** n8n's lint, as `n8n-node new` configures it (`npm run lint` in the package, `npm run n8n:check` here). */
export const ESLINT_CONFIG = `import { config } from '@n8n/node-cli/eslint';

export default config;
`;

/**
 * tsconfig.json as `n8n-node new` writes it, so `n8n-node build` (tsc) compiles the package on
 * its own; `allowJs` carries the bundled runtime (nodes/shared/runtime.js) into dist/ with the
 * nodes that require it.
 */
export const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'commonjs',
    moduleResolution: 'node',
    target: 'es2019',
    lib: ['es2019', 'es2020', 'es2022.error'],
    removeComments: true,
    useUnknownInCatchVariables: false,
    forceConsistentCasingInFileNames: true,
    noImplicitAny: true,
    noImplicitReturns: true,
    noUnusedLocals: true,
    strictNullChecks: true,
    preserveConstEnums: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    incremental: true,
    declaration: true,
    sourceMap: true,
    skipLibCheck: true,
    allowJs: true,
    outDir: './dist/',
  },
  include: ['credentials/**/*', 'nodes/**/*', 'nodes/**/*.json', 'package.json'],
};

export const GITIGNORE = 'dist\nnode_modules\n';
