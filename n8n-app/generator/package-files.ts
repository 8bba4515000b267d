import rootPackage from '../../package.json' with { type: 'json' };
import { ACTION_NODE, CREDENTIAL, PACKAGE_NAME, TRIGGER_NODE } from '../names.ts';
import { DOCUMENTATION_URL } from './descriptions.ts';

/** Where each compiled file goes inside the package (n8n's layout: sources at the root, JavaScript in dist/). */
export const paths = {
  actionSource: `nodes/${ACTION_NODE.className}/${ACTION_NODE.className}.node.ts`,
  triggerSource: `nodes/${TRIGGER_NODE.className}/${TRIGGER_NODE.className}.node.ts`,
  credentialSource: `credentials/${CREDENTIAL.className}.credentials.ts`,
  actionJs: `dist/nodes/${ACTION_NODE.className}/${ACTION_NODE.className}.node.js`,
  triggerJs: `dist/nodes/${TRIGGER_NODE.className}/${TRIGGER_NODE.className}.node.js`,
  credentialJs: `dist/credentials/${CREDENTIAL.className}.credentials.js`,
} as const;

/**
 * package.json as n8n's community-package rules want it: the `n8n-nodes-` name, the
 * `n8n-community-node-package` keyword, the `n8n` field listing the compiled nodes and
 * credential, only `dist/` published, and no dependencies: shared/ and zod are bundled in,
 * n8n-workflow is the engine's own (a peer dependency).
 */
export function packageJson() {
  return {
    name: PACKAGE_NAME,
    version: rootPackage.version,
    description: 'Pagerly nodes for n8n: a polling trigger on on-call changes, and incidents, directory and who-is-on-call operations.',
    keywords: ['n8n-community-node-package', 'pagerly', 'on-call', 'incident'],
    license: 'MIT',
    homepage: DOCUMENTATION_URL,
    author: { name: 'Pagerly', email: 'support@pagerly.io' },
    engines: { node: '>=22' },
    files: ['dist'],
    n8n: {
      n8nNodesApiVersion: 1,
      strict: true,
      credentials: [paths.credentialJs],
      nodes: [paths.actionJs, paths.triggerJs],
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

/** n8n's lint, run from the package folder by `npm run n8n:check`. */
export const ESLINT_CONFIG = `import { config } from '@n8n/node-cli/eslint';

export default config;
`;
