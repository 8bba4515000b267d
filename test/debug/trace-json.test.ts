import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TRACE_LINE_PREFIX } from '../../shared/http/trace.ts';
import { KEYS, run } from '../cli/support.ts';
import { closedPort, loopbackServer } from '../support/loopback-server.ts';

/** Stdout of a --json run: empty, or exactly one JSON document and nothing of the trace. */
function expectCleanStdout(stdout: string) {
  expect(stdout).not.toMatch(/^[*<>] /m);
  expect(stdout).not.toContain(TRACE_LINE_PREFIX);
  if (stdout.trim() !== '') expect(() => JSON.parse(stdout)).not.toThrow();
}

/**
 * Stderr of a --json --debug run that failed: every trace line behind `pagerly-debug: `, and what
 * is left once those are dropped (as docs/cli.md tells a script to) is the error document, whole.
 */
function expectErrorBesideTrace(stderr: string, exitCode: number) {
  const lines = stderr.split('\n');
  const trace = lines.filter((line) => line.startsWith(TRACE_LINE_PREFIX));
  expect(trace.length).toBeGreaterThan(1);
  expect(trace[0]).toMatch(/^pagerly-debug: \* GET /);
  const rest = lines.filter((line) => !line.startsWith(TRACE_LINE_PREFIX)).join('\n');
  const document = JSON.parse(rest) as { error: { code: string; exitCode: number } };
  expect(document.error.exitCode).toBe(exitCode);
  // Nothing of the trace is left outside the marked lines.
  expect(rest).not.toMatch(/^[*<>] /m);
  return document;
}

const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));
const NODE = fileURLToPath(new URL('../../node_modules/.bin/node', import.meta.url));
const sh = promisify(execFile);

describe('pagerly --json --debug on the paths that fail', () => {
  it('keeps stdout clean through retries that end in an error, the error document told apart from the trace', async () => {
    const server = await loopbackServer((_request, response) => {
      response.statusCode = 503;
      response.setHeader('retry-after', '0');
      response.end('busy');
    });
    try {
      const result = await run(['--json', '--debug', '--base-url', server.url, 'teams'], { env: { PAGERLY_API_KEY: KEYS.admin } });
      expect(result.code).not.toBe(0);
      expect(result.stderr.match(/^pagerly-debug: \* GET \S+ 503 /gm)!.length).toBeGreaterThan(1);
      expectCleanStdout(result.stdout);
      expect(expectErrorBesideTrace(result.stderr, result.code).error).toMatchObject({ retryable: true });
    } finally {
      await server.close();
    }
  });

  it('keeps stdout clean when nothing answers', async () => {
    const url = await closedPort();
    const result = await run(['--json', '--debug', '--base-url', url, 'teams'], { env: { PAGERLY_API_KEY: KEYS.admin } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^pagerly-debug: \* GET \S+ no answer \(ECONNREFUSED\)/m);
    expectCleanStdout(result.stdout);
    expectErrorBesideTrace(result.stderr, result.code);
  });

  it("leaves the error document to a script that drops the marked lines (sh, grep -v '^pagerly-debug: ')", async () => {
    const url = await closedPort();
    // What docs/cli.md shows: stderr into the pipe, stdout away, the trace dropped by its prefix.
    const script = `"$NODE" "$BIN" --json --debug --retries 1 --base-url "$BASE" teams 2>&1 >/dev/null | grep -v '^${TRACE_LINE_PREFIX}'`;
    const { stdout } = await sh('sh', ['-c', script], {
      env: { PATH: process.env.PATH ?? '', NODE, BIN, BASE: url, PAGERLY_API_KEY: KEYS.admin },
      encoding: 'utf8',
    });
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'network', retryable: true } });
    const { stdout: trace } = await sh('sh', ['-c', script.replace(`grep -v '^`, `sed -n 's/^`).replace(/'$/, `//p'`)], {
      env: { PATH: process.env.PATH ?? '', NODE, BIN, BASE: url, PAGERLY_API_KEY: KEYS.admin },
      encoding: 'utf8',
    });
    // ... and the trace alone, as curl -v shows it, by sed -n 's/^pagerly-debug: //p'.
    expect(trace.match(/^\* GET \S+ no answer \(ECONNREFUSED\) \d+ ms$/gm)).toHaveLength(2);
    expect(trace).not.toContain('"error"');
  });
});
