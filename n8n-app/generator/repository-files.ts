import { MIT_LICENSE } from '../../surfaces/license.ts';
import { PACKAGE_NAME } from '../names.ts';

/**
 * What makes dist/n8n/ the root of the package's own repository, beside the package: its
 * licence (npm ships it too) and the two workflows n8n's template gives a community-node
 * repository, in this project's words: CI (lint and build on every push) and Publish (on a
 * version tag, `npm run release`, which n8n-node runs with npm provenance in CI; n8n requires
 * provenance of verified community nodes).
 */

/** The licence the package declares (package.json `license`), beside it in its repository and tarball. */
export const LICENSE = MIT_LICENSE;

/**
 * The actions both workflows run, at a full commit SHA with the version in a comment: a tag can be
 * moved to other code, and the Publish job holds the npm token and an OIDC token. The same pins
 * as this repository's release workflow (test/release/release-workflow.test.ts checks both).
 */
export const PINNED_ACTIONS = {
  checkout: 'actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2',
  setupNode: 'actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020 # v4.4.0',
} as const;

export const CI_WORKFLOW = `# Written by pagerly-connectors (npm run n8n:repo): edit it there, not here.
name: CI

on:
  pull_request:
  push:
    branches: [main]

permissions:
  contents: read

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: ${PINNED_ACTIONS.checkout}
      - uses: ${PINNED_ACTIONS.setupNode}
        with:
          node-version: '24'
      - run: npm install --no-audit --no-fund
      - run: npm run lint
      - run: npm run build
`;

export const PUBLISH_WORKFLOW = `# Written by pagerly-connectors (npm run n8n:repo): edit it there, not here.
# Publishes ${PACKAGE_NAME} to npm when the release of pagerly-connectors pushes a version tag
# (0.1.0, ...). npm provenance binds the package to this repository and workflow, which n8n
# requires of verified community nodes; npm authenticates by trusted publishing (OIDC), or by an
# NPM_TOKEN secret where one is set.
name: Publish

on:
  push:
    tags: ['*.*.*']

permissions:
  contents: read
  id-token: write

jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: ${PINNED_ACTIONS.checkout}
      - uses: ${PINNED_ACTIONS.setupNode}
        with:
          node-version: '24'
          registry-url: 'https://registry.npmjs.org'
      - run: npm install --no-audit --no-fund
      - name: Release (lint, build, publish with provenance)
        run: npm run release
        env:
          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
`;

/** The repository's files beyond the package's own, by path. */
export function repositoryFiles(): Map<string, string> {
  return new Map([
    ['LICENSE', LICENSE],
    ['.github/workflows/ci.yml', CI_WORKFLOW],
    ['.github/workflows/publish.yml', PUBLISH_WORKFLOW],
  ]);
}
