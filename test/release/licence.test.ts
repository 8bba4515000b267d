import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import rootPackage from '../../package.json' with { type: 'json' };
import { cliPackageJson } from '../../cli/build-cli-package.ts';
import { clientPackageJson } from '../../client/build-client-package.ts';
import { sandboxPackageJson } from '../../sandbox/package/build-sandbox-package.ts';
import { actionPackageJson, generateAction } from '../../github-action/generator/generate.ts';
import { LICENSE as N8N_LICENSE } from '../../n8n-app/generator/repository-files.ts';
import { packageJson as n8nPackageJson } from '../../n8n-app/generator/package-files.ts';
import { openApi } from '../../openapi/generate.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import { MIT_LICENSE } from '../../surfaces/license.ts';
import { appPackage as zapierAppPackage } from '../../zapier-app/packaging/app-package.ts';

/**
 * The GitHub Action's repository is dist/action/ and nothing else: the release workflow replaces
 * its tree with that folder (`rsync --delete`), so a LICENSE added there by hand is deleted at the
 * next release. Its package.json declares MIT, whose terms ask for the notice with every copy,
 * and GitHub shows a repository's licence only from a LICENSE file
 * (https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/licensing-a-repository).
 */
describe("the Action's repository tree", () => {
  it('carries the MIT licence its package.json declares, the same text as every package', () => {
    const files = generateAction({ operations });
    expect(actionPackageJson().license).toBe('MIT');
    expect(files.get('LICENSE')).toBe(MIT_LICENSE);
    expect(MIT_LICENSE).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} Pagerly\n/);
    expect(N8N_LICENSE).toBe(MIT_LICENSE);
  });
});

/**
 * One licence, MIT, for everything this repository publishes: the repository itself (a root
 * LICENSE, which GitHub shows), every package.json that ships, and the OpenAPI document's
 * `info.license`, which OpenAPI 3.1 asks to name by SPDX identifier (Info and License objects,
 * https://spec.openapis.org/oas/v3.1.0#license-object).
 */
describe('the licence, everywhere', () => {
  it('is the same MIT text at the root as in every package', () => {
    expect(readFileSync(new URL('../../LICENSE', import.meta.url), 'utf8')).toBe(MIT_LICENSE);
  });

  it('is MIT in every package.json: the repository, the CLI, the client, the sandbox, n8n, Zapier, the Action', () => {
    const declared = [rootPackage, cliPackageJson(), clientPackageJson(), sandboxPackageJson(), n8nPackageJson(), zapierAppPackage(), actionPackageJson()].map(
      (pkg) => (pkg as { license?: unknown }).license,
    );
    expect(declared).toEqual(Array(declared.length).fill('MIT'));
  });

  it("is MIT, with its SPDX identifier, in the OpenAPI document's info", () => {
    const { info } = openApi({ operations, endpoints }) as { info: { license: unknown } };
    expect(info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });
});
