import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { packageJson } from '../../n8n-app/generator/package-files.ts';
import { PACKAGE_NAME } from '../../n8n-app/names.ts';
import { writeN8nRepository } from '../../n8n-app/write-repository.ts';

const run = promisify(execFile);
const validator = join(process.cwd(), 'node_modules/.bin/action-validator');
const temp = mkdtempSync(join(tmpdir(), 'pagerly-n8n-repo-test-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("the n8n package's own repository", () => {
  it('is named by the package, with no directory (the package is its root)', () => {
    const { repository } = packageJson();
    expect(repository).toEqual({ type: 'git', url: `git+https://github.com/pagerly/${PACKAGE_NAME}.git` });
    expect(repository).not.toHaveProperty('directory');
  });

  describe('npm run n8n:repo writes its tree into a checkout', () => {
    const checkout = join(temp, 'checkout');
    let written: string[] = [];
    it('replaces all but .git with the package, less what its .gitignore leaves out', async () => {
      mkdirSync(join(checkout, '.git'), { recursive: true });
      writeFileSync(join(checkout, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(checkout, 'stale.txt'), 'from an older release\n');
      written = await writeN8nRepository(checkout);
      expect(readFileSync(join(checkout, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
      expect(existsSync(join(checkout, 'stale.txt'))).toBe(false);
      expect(written).toEqual(
        expect.arrayContaining([
          'package.json',
          'README.md',
          'LICENSE',
          '.gitignore',
          '.github/workflows/ci.yml',
          '.github/workflows/publish.yml',
          'nodes/shared/runtime.js',
        ]),
      );
      expect(written.filter((path) => path.startsWith('dist/') || path.startsWith('node_modules/'))).toEqual([]);
      const pkg = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8'));
      expect(pkg.repository).toEqual(packageJson().repository);
      expect(readFileSync(join(checkout, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    });

    it('publishes from its own workflow, with provenance, on a version tag', () => {
      const publish = parse(readFileSync(join(checkout, '.github/workflows/publish.yml'), 'utf8'));
      expect(publish.on).toEqual({ push: { tags: ['*.*.*'] } });
      expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
      const steps = publish.jobs.publish.steps as { run?: string; with?: Record<string, string> }[];
      expect(steps.map((step) => step.run).filter(Boolean)).toEqual(['npm install --no-audit --no-fund', 'npm run release']);
      // n8n-node release publishes with npm provenance when it runs in CI.
      expect(JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')).scripts.release).toBe('n8n-node release');
    });

    it.each(['ci.yml', 'publish.yml'])('%s runs every action at a full commit SHA', (file) => {
      // https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions
      // (Using third-party actions): only a full-length SHA is immutable; a moved tag would run
      // other code beside the npm token and the OIDC token provenance is signed with.
      const workflow = parse(readFileSync(join(checkout, '.github/workflows', file), 'utf8'));
      const uses = Object.values(workflow.jobs as Record<string, { steps: { uses?: string }[] }>).flatMap((job) =>
        job.steps.flatMap((step) => (step.uses ? [step.uses] : [])),
      );
      expect(uses.length).toBeGreaterThan(0);
      for (const ref of uses) expect(ref).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
    });

    it.each(['ci.yml', 'publish.yml'])("%s holds to action-validator's workflow schema", async (file) => {
      await expect(run(validator, [join(checkout, '.github/workflows', file)])).resolves.toBeDefined();
    });
  });
});
