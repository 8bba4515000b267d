import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { EXIT, exitCodeTable } from '../../cli/exit-codes.ts';
import { startCliSandbox, type CliSandbox } from './support.ts';

// A create answered 2xx whose id cannot be read, over real HTTP: the sandbox on loopback
// answers the incident call with what the service may send. The status is the service's word
// (assumption `created-id`): the create was done, so the command succeeds and says what is missing.

let s: CliSandbox;
beforeAll(async () => {
  s = await startCliSandbox();
});
afterAll(() => s.close());
afterEach(() => s.sandbox.faults.clear());

const answer = (status: number, body: string) => s.sandbox.faults.inject({ method: 'POST', path: '/o/incident', status, body });

describe('incident create answered 2xx without a readable id: done, so exit 0', () => {
  it.each([
    ['{}', 201, '{}'],
    ['an empty body', 200, ''],
    ['an empty id', 201, '{"id":"","title":"Deploy failed"}'],
    ['an id of blanks', 201, '{"id":"   "}'],
    ['an HTML page', 200, '<html><body>Created</body></html>'],
  ])('%s: nothing on stdout, the note on stderr, exit 0', async (_name, status, body) => {
    answer(status, body);
    const r = await s.cli(['incident', 'create', '--title', 'Deploy failed', '--severity', 'P2']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^Created incident "Deploy failed.*", but no id is printed: The service answered HTTP 20\d, so the incident was created, but it gave no id that could be read; its answer is passed on as it came\. Look for its id in the dashboard; do not create it again\.\n$/,
    );
  });

  it('an id over two lines is not printed (a pipeline would keep two ids), exit 0', async () => {
    answer(201, '{"id":"inc_1\\ninc_2"}');
    const r = await s.cli(['incident', 'create', '--title', 'Deploy failed']);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: '' });
    // The shared id search takes no id with a control character in it (created-id.ts).
    expect(r.stderr).toContain('gave no id that could be read');
  });

  it('--json: the answer with id null and the note on stdout, nothing on stderr, exit 0', async () => {
    answer(201, '{"title":"Deploy failed","status":"triggered"}');
    const r = await s.cli(['incident', 'create', '--title', 'Deploy failed', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({ title: 'Deploy failed', status: 'triggered', id: null, note: expect.stringContaining('gave no id that could be read') });
    expect(r.stderr).toBe('');
  });

  it('--json: text that is not JSON is passed on under answer', async () => {
    answer(201, 'INC-7');
    const r = await s.cli(['incident', 'create', '--title', 'Deploy failed', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({ answer: 'INC-7', id: null, note: expect.stringContaining('gave no id that could be read') });
  });

  it('the id the service put in a wrapping object is printed alone on stdout', async () => {
    answer(200, '{"result":{"id":"INC-7"}}');
    const r = await s.cli(['incident', 'create', '--title', 'x']);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'INC-7\n' });
  });

  it('an update whose answer leaves the id out still prints the id it was given (exit 0)', async () => {
    answer(200, '{"title":"x","status":"resolved"}');
    const r = await s.cli(['incident', 'update', 'inc_0042', '--title', 'x', '--status', 'resolved']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('inc_0042\n');
  });

  it('a normal create still prints its id alone on stdout, exit 0', async () => {
    const r = await s.cli(['incident', 'create', '--title', 'Real one']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^inc_\w+\n$/);
  });

  it('no exit code is kept for a create without an id: the table, the help and docs/cli.md have none', async () => {
    expect(exitCodeTable.map(({ code }) => code)).not.toContain(76);
    const top = await s.cli(['--help']);
    expect(top.stdout).not.toMatch(/\b76\b/);
    const guide = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const section = guide.split('\n## Exit codes\n')[1]?.split('\n## ')[0] ?? '';
    for (const { code } of exitCodeTable) expect({ code, documented: new RegExp(`^\\| ${code} \\|`, 'm').test(section) }).toEqual({ code, documented: true });
    expect(section).not.toMatch(/^\| 76 \|/m);
  });
});
