import { describe, expect, it } from '@jest/globals';
import { KEYS, run } from '../cli/support.ts';
import { closedPort, loopbackServer } from '../support/loopback-server.ts';

/** Stdout of a --json run: empty, or exactly one JSON document and nothing of the trace. */
function expectCleanStdout(stdout: string) {
  expect(stdout).not.toMatch(/^[*<>] /m);
  if (stdout.trim() !== '') expect(() => JSON.parse(stdout)).not.toThrow();
}

describe('pagerly --json --debug on the paths that fail', () => {
  it('keeps stdout clean through retries that end in an error', async () => {
    const server = await loopbackServer((_request, response) => {
      response.statusCode = 503;
      response.setHeader('retry-after', '0');
      response.end('busy');
    });
    try {
      const result = await run(['--json', '--debug', '--base-url', server.url, 'teams'], { env: { PAGERLY_API_KEY: KEYS.admin } });
      expect(result.code).not.toBe(0);
      expect(result.stderr.match(/^\* GET \S+ 503 /gm)!.length).toBeGreaterThan(1);
      expectCleanStdout(result.stdout);
    } finally {
      await server.close();
    }
  });

  it('keeps stdout clean when nothing answers', async () => {
    const url = await closedPort();
    const result = await run(['--json', '--debug', '--base-url', url, 'teams'], { env: { PAGERLY_API_KEY: KEYS.admin } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^\* GET \S+ no answer \(ECONNREFUSED\)/m);
    expectCleanStdout(result.stdout);
  });
});
