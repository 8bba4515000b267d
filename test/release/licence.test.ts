import { describe, expect, it } from '@jest/globals';
import { actionPackageJson, generateAction } from '../../github-action/generator/generate.ts';
import { LICENSE as N8N_LICENSE } from '../../n8n-app/generator/repository-files.ts';
import { operations } from '../../shared/operations/index.ts';
import { MIT_LICENSE } from '../../surfaces/license.ts';

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
