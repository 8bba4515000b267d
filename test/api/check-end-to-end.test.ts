import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

/**
 * The real `npm run api:check` and `npm run api:update`, as a maintainer runs them, in a
 * temporary copy of the checkout (its files, and node_modules by a link): an input key renamed
 * in shared/operations fails the check, naming the key and `breaking` on every surface; an
 * optional input added, then api:update, passes it and shows in the reports' diff.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
let copy: string;

function copyCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'api-check-'));
  // The files git knows of, committed or not yet (so the test runs on a branch before its commit).
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0');
  for (const file of listed) {
    if (!file || file === 'node_modules' || !existsSync(join(root, file)) || lstatSync(join(root, file)).isSymbolicLink()) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(root, file), join(dir, file));
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Runs an npm script in the copy, in a process group of its own, stopped whatever happens. */
function npmRun(script: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd: copy, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`npm run ${script} took more than 60 s:\n${output}`));
    }, 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const file = (path: string) => join(copy, path);
const edit = (path: string, from: string, to: string) => {
  const text = readFileSync(file(path), 'utf8');
  if (!text.includes(from)) throw new Error(`${path} no longer holds ${JSON.stringify(from)}: update this test's edit.`);
  writeFileSync(file(path), text.replace(from, to));
};

const TITLE = "const titleField: InputField = {\n  key: 'title',";
const INPUTS = 'inputFields: [\n    titleField,\n    severityField,';

beforeAll(() => {
  copy = copyCheckout();
});
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('npm run api:check in a copy of the checkout', () => {
  it('fails on an input key renamed in shared/operations, naming the key and "breaking" on every surface', async () => {
    edit('shared/operations/create-incident.ts', TITLE, "const titleField: InputField = {\n  key: 'headline',");
    const { code, output } = await npmRun('api:check');
    expect(code).toBe(1);
    for (const line of [
      'zapier create/create_incident/input/title: breaking: removed (renamed to headline?).',
      'make module/createIncident/param/title: breaking: removed (renamed to headline?).',
      'n8n node/pagerly/v1/operation/incident/create/property/title: breaking: removed (renamed to headline?).',
      'mcp tool/create_incident/input/title: breaking: removed (renamed to headline?).',
    ]) {
      expect(output).toContain(line);
    }
    expect(output).toContain('Run npm run api:update');
    expect(output).toMatch(/breaking differences? since the released version 0\.1\.0/);
  }, 90_000);

  it('passes after an optional input is added and npm run api:update has written the reports, whose diff names it', async () => {
    edit('shared/operations/create-incident.ts', "const titleField: InputField = {\n  key: 'headline',", TITLE);
    edit(
      'shared/operations/create-incident.ts',
      INPUTS,
      `${INPUTS}\n    { key: 'runbook_url', label: 'Runbook URL', type: 'url', required: false, help: 'Where the runbook lives.' },`,
    );
    const before = readFileSync(file('api/zapier.txt'), 'utf8');
    const released = readFileSync(file('api/released/zapier.txt'), 'utf8');
    const update = await npmRun('api:update');
    expect(update.code).toBe(0);
    const after = readFileSync(file('api/zapier.txt'), 'utf8');
    const added = after.split('\n').filter((line) => !before.split('\n').includes(line));
    expect(added).toEqual([expect.stringMatching(/^create\/create_incident\/input\/runbook_url\tinput\t/)]);
    expect(readFileSync(file('api/mcp.txt'), 'utf8')).toContain('tool/create_incident/input/runbook_url\tinput');
    // The released reports are the release's, never rewritten by api:update.
    expect(readFileSync(file('api/released/zapier.txt'), 'utf8')).toBe(released);
    const check = await npmRun('api:check');
    expect({ code: check.code, output: check.output }).toEqual({
      code: 0,
      output: expect.stringMatching(/the reports are current; \d+ differences since 0\.1\.0, none that/),
    });
  }, 90_000);

  it('npm run api:release records the interface only under a version that moved on', async () => {
    const refused = await npmRun('api:release');
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('package.json still says 0.1.0, the released version');
    expect(readFileSync(file('api/released/VERSION'), 'utf8')).toBe('0.1.0\n');
    edit('package.json', '"version": "0.1.0"', '"version": "0.2.0"');
    const released = await npmRun('api:release');
    expect(released.code).toBe(0);
    expect(readFileSync(file('api/released/VERSION'), 'utf8')).toBe('0.2.0\n');
    expect(readFileSync(file('api/released/zapier.txt'), 'utf8')).toBe(readFileSync(file('api/zapier.txt'), 'utf8'));
  }, 90_000);

  it('fails on a released report no extractor writes any more: a surface dropped from the registry is not dropped from the check', async () => {
    writeFileSync(file('api/released/retired-surface.txt'), '# a report of a surface whose extractor is gone\n');
    const { code, output } = await npmRun('api:check');
    expect(code).toBe(1);
    expect(output).toContain('api/released/retired-surface.txt has no extractor in scripts/api/surfaces/index.ts');
  }, 90_000);
});
