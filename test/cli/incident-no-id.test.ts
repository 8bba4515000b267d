import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { EXIT, exitCodeTable } from '../../cli/exit-codes.ts';
import { startCliSandbox, type CliSandbox } from './support.ts';

// A create answered with success but no id, over real HTTP: the sandbox
// on loopback answers the incident call with what a faulty service could send.

let s: CliSandbox;
beforeAll(async () => {
  s = await startCliSandbox();
});
afterAll(() => s.close());
afterEach(() => s.sandbox.faults.clear());

const answer = (status: number, body: string) => s.sandbox.faults.inject({ method: 'POST', path: '/o/incident', status, body });

describe('incident create answered 2xx without an id', () => {
  it.each([
    ['{}', 201, '{}'],
    ['an empty body', 200, ''],
    ['an empty id', 201, '{"id":"","title":"Deploy failed"}'],
    ['an id of blanks', 201, '{"id":"   "}'],
    ['an id over two lines', 201, '{"id":"inc_1\\ninc_2"}'],
  ])('%s: nothing on stdout, what happened on stderr, exit 76', async (_name, status, body) => {
    answer(status, body);
    const r = await s.cli(['incident', 'create', '--title', 'Deploy failed', '--severity', 'P2']);
    expect(r.code).toBe(EXIT.noId);
    expect(r.code).toBe(76);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: The service answered that it created the incident "Deploy failed.*" but gave no id, so none is printed\. The incident probably exists: look for it in the dashboard before creating it again\.\n$/,
    );
    expect(r.stderr).not.toContain('safe to retry');
  });

  it('--json: the answer as it came on stdout (data), a no_id error on stderr, exit 76', async () => {
    answer(201, '{"title":"Deploy failed","status":"triggered"}');
    const r = await s.cli(['incident', 'create', '--title', 'Deploy failed', '--json']);
    expect(r.code).toBe(76);
    expect(r.json()).toEqual({ title: 'Deploy failed', status: 'triggered' });
    expect(r.errorJson()).toEqual({ error: { code: 'no_id', message: expect.stringContaining('gave no id'), retryable: false, exitCode: 76 } });
  });

  it('a pipeline that keeps the id keeps nothing, and can tell why by the exit code', async () => {
    answer(201, '{}');
    const r = await s.cli(['incident', 'create', '--title', 'x']);
    const kept = r.stdout.trim();
    expect({ kept, code: r.code }).toEqual({ kept: '', code: 76 });
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

  it("76 is documented: in the exit code table (help) and in every command's help line", async () => {
    expect(exitCodeTable.find(({ code }) => code === 76)?.meaning).toMatch(/no id/);
    const top = await s.cli(['--help']);
    expect(top.stdout).toMatch(/\n\s+76 {2}the service said it created the incident but gave no id/);
    const create = await s.cli(['incident', 'create', '--help']);
    expect(create.stdout).toContain('76 created but no id came back');
  });

  it("every exit code of the table, 76 and 130 included, is in docs/cli.md's exit code table", () => {
    const guide = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const section = guide.split('\n## Exit codes\n')[1]?.split('\n## ')[0] ?? '';
    for (const { code } of exitCodeTable) expect({ code, documented: new RegExp(`^\\| ${code} \\|`, 'm').test(section) }).toEqual({ code, documented: true });
    expect(section).toMatch(/^\| 76 \| the service said it created the incident but gave no id/m);
  });
});
