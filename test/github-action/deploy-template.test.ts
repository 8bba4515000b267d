import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { actionInputs } from '../../github-action/inputs.ts';
import { operations } from '../../shared/operations/index.ts';
import { DEPLOY_WORKFLOW, deployJob } from './deploy-workflow.ts';

/** The deploy template, checked offline; `npm run action:local` runs its job against the sandbox. */
const run = promisify(execFile);
const validator = join(process.cwd(), 'node_modules/.bin/action-validator');

describe('the failed-deploy workflow template', () => {
  it("holds to action-validator's workflow schema, which refuses a broken copy", async () => {
    await expect(run(validator, [DEPLOY_WORKFLOW])).resolves.toBeDefined();
    const temp = mkdtempSync(join(tmpdir(), 'pagerly-deploy-template-'));
    try {
      const broken = join(temp, 'deploy.yml');
      writeFileSync(broken, readFileSync(DEPLOY_WORKFLOW, 'utf8').replace('cancel-in-progress: false', 'cancel-in-progress: later'));
      await expect(run(validator, [broken])).rejects.toThrow();
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('gives the Action only inputs it has, and carries the id by one cache prefix per branch', () => {
    const inputs = new Set(actionInputs({ operations }).map((input) => input.name));
    const steps = deployJob().steps;
    const pagerly = steps.filter((step) => step.uses?.startsWith('pagerly/incident-action@'));
    expect(pagerly.map((step) => step.id)).toEqual(['incident', 'resolve']);
    for (const step of pagerly) for (const input of Object.keys(step.with ?? {})) expect({ input, known: inputs.has(input) }).toEqual({ input, known: true });
    const restore = steps.find((step) => step.uses?.startsWith('actions/cache/restore@'))!;
    const save = steps.find((step) => step.uses?.startsWith('actions/cache/save@'))!;
    expect(save.with?.['key']).toBe(restore.with?.['key']);
    expect(restore.with?.['key']?.startsWith(restore.with?.['restore-keys'] ?? '-')).toBe(true);
    expect(save.if).toBe('always()');
  });
});
