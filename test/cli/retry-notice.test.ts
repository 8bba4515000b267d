import { afterEach, describe, expect, it } from '@jest/globals';
import { main } from '../../cli/main.ts';
import { retryNoticeText } from '../../cli/retry-notice.ts';
import { faultServer, json, type FaultServer } from '../support/fault-server.ts';
import { Capture } from './support.ts';

/**
 * A wait the CLI sits through is said on stderr (why, how long, which
 * attempt), never on stdout; with --json stderr stays quiet, so it holds at most the one error
 * document a pipeline parses. Over loopback: a real 429 with Retry-After: 1, then the answer.
 */
const KEY = 'retry-notice-test-key-7c1e';
const CHECKED = {
  valid: true,
  user: { id: 'usr_1', name: 'Grace Hopper', email: 'grace@acme.example', role: 'admin' },
  organization: { id: 'org_1', name: 'Acme' },
};
/** What `check` reads next, the team list at the rotations base (shared/operations/connection-check.ts). */
const TEAMS = json(200, [{ id: 'team_1', name: 'Platform' }]);
let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function check(extra: string[] = []) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(['--base-url', server!.url, 'check', ...extra], { PAGERLY_API_KEY: KEY }, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('a retried request says so on stderr', () => {
  it('a 429 with Retry-After: 1 then 200: one line naming the wait and the attempt, then the result', async () => {
    server = await faultServer([json(429, [{ Error: 'slow down' }], { 'retry-after': '1' }), json(200, CHECKED), TEAMS]);
    const started = performance.now();
    const ran = await check();
    expect(ran.code).toBe(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.arrivals).toHaveLength(3);
    expect(ran.stderr).toBe('Rate limited by Pagerly; retrying in 1 s (attempt 2 of 3)…\n');
    expect(ran.stdout).not.toContain('retrying');
    expect(ran.stdout).toContain('Grace Hopper');
  });

  it('a 503 and a dropped connection on a read: each wait is said, with the backoff', async () => {
    server = await faultServer([json(503, [{ Error: 'down' }]), { kind: 'reset' }, json(200, CHECKED), TEAMS]);
    const ran = await check(['--retries', '2']);
    expect(ran.code).toBe(0);
    expect(ran.stderr.trim().split('\n')).toEqual([
      'Pagerly answered HTTP 503; retrying in 0.5 s (attempt 2 of 3)…',
      expect.stringMatching(/^No answer from Pagerly \(E[A-Z_]+\); retrying in 1 s \(attempt 3 of 3\)…$/),
    ]);
  });

  it('--json: stderr stays quiet on a retry that succeeds, and holds only the error document when it fails', async () => {
    server = await faultServer([json(429, [{ Error: 'slow down' }], { 'retry-after': '1' }), json(200, CHECKED), TEAMS]);
    const ok = await check(['--json']);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(JSON.parse(ok.stdout)).toMatchObject({ valid: true });
    await server.close();
    server = await faultServer([json(503, [{ Error: 'down' }])]);
    const failed = await check(['--json', '--retries', '1']);
    expect(failed.code).toBe(75);
    expect(JSON.parse(failed.stderr)).toMatchObject({ error: { status: 503, retryable: true } });
  });

  it('a host name that did not resolve, or a refused connection, is named so, not "no answer"', () => {
    // Seen with the default base URL where api.pagerly.io cannot be resolved: "No answer from
    // Pagerly (ENOTFOUND)" twice, then "The host … does not exist": the notices now agree with it.
    expect(retryNoticeText({ attempt: 2, of: 3, delayMs: 500, code: 'ENOTFOUND' })).toBe(
      'The host name of the base URL did not resolve (ENOTFOUND); retrying in 0.5 s (attempt 2 of 3)…',
    );
    expect(retryNoticeText({ attempt: 2, of: 3, delayMs: 500, code: 'EAI_AGAIN' })).toMatch(/^The host name of the base URL did not resolve \(EAI_AGAIN\)/);
    expect(retryNoticeText({ attempt: 3, of: 3, delayMs: 1000, code: 'ECONNREFUSED' })).toBe(
      'Nothing is listening at the base URL (ECONNREFUSED); retrying in 1 s (attempt 3 of 3)…',
    );
    expect(retryNoticeText({ attempt: 2, of: 3, delayMs: 500, code: 'ECONNRESET' })).toMatch(/^No answer from Pagerly \(ECONNRESET\)/);
  });

  it('no retry, no line: --retries 0', async () => {
    server = await faultServer([json(429, [{ Error: 'slow down' }], { 'retry-after': '1' })]);
    const ran = await check(['--retries', '0']);
    expect(ran.code).toBe(75);
    expect(ran.stderr).not.toContain('retrying');
  });
});
