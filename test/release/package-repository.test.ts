import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { cliPackageJson } from '../../cli/build-cli-package.ts';
import { clientPackageJson } from '../../client/build-client-package.ts';
import { sandboxPackageJson } from '../../sandbox/package/build-sandbox-package.ts';

/**
 * Where the published packages say they come from. npm links a package's page to
 * `repository.url` plus `repository.directory`
 * (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#repository: "the directory in
 * which it lives" in a monorepo), and npm provenance requires the url to be the repository whose
 * workflow publishes. The packages are built into dist/, which git ignores, so the directory must
 * be the committed folder that builds them: a path in dist/ is a link to nothing.
 */
const tracked = (folder: string) => execFileSync('git', ['ls-files', '--', folder], { encoding: 'utf8' }).trim();

describe.each([
  ['@pagerly/cli', cliPackageJson().repository],
  ['@pagerly/client', clientPackageJson().repository],
  ['@pagerly/sandbox', sandboxPackageJson().repository],
])('%s', (_, repository) => {
  it('names this repository, as provenance requires, and a committed folder of it', () => {
    expect(repository.url).toBe('git+https://github.com/pagerly/pagerly-connectors.git');
    expect(tracked(repository.directory)).not.toBe('');
  });
});

describe.each([
  ['@pagerly/cli', cliPackageJson()],
  ['@pagerly/client', clientPackageJson()],
  ['@pagerly/sandbox', sandboxPackageJson()],
])('%s on npm', (_, pkg) => {
  it('states the Node floor its engines field holds, wherever it names one', () => {
    // npm shows the description in search results and warns (EBADENGINE) against `engines`
    // (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#engines): the two must agree.
    const floor = pkg.engines.node.replace(/^>=/, '');
    for (const [, said] of pkg.description.matchAll(/Node (\d+(?:\.\d+)*)/g)) expect(said).toBe(floor);
  });
});
