import { describe, expect, it } from '@jest/globals';
import { PROGRESS_INTERVAL_MS, progressOf } from '../../mcp-server/progress.ts';

/**
 * Progress as the server sends it (mcp-server/progress.ts): only with a token, only growing,
 * at most one notification an interval but the last, and all of it before the result. MCP spec,
 * basic/utilities/progress ("progress MUST increase"; "SHOULD implement rate limiting"):
 * https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/progress
 */

function context(token: string | number | undefined) {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  const ctx = {
    mcpReq: {
      _meta: token === undefined ? {} : { progressToken: token },
      notify: async (notification: { method: string; params?: Record<string, unknown> }) =>
        void sent.push({ method: notification.method, params: notification.params ?? {} }),
    },
  } as unknown as Parameters<typeof progressOf>[0];
  return { ctx, sent };
}

describe('progress', () => {
  it('is nothing without a progress token', () => {
    expect(progressOf(context(undefined).ctx)).toBeUndefined();
  });

  it('sends with the token (0 is one), only growing, at most once an interval, and what was held back when settled', async () => {
    let now = 0;
    const { ctx, sent } = context(0);
    const progress = progressOf(ctx, () => now)!;
    progress.report(0, 10, 'first');
    progress.report(1, 10, 'too soon');
    progress.report(1, 10, 'the same again');
    now += PROGRESS_INTERVAL_MS;
    progress.report(3, 10, 'after the interval');
    progress.report(2, 10, 'going back');
    progress.report(4, 10, 'held back');
    await progress.settled();
    progress.report(10, 10, 'the total, at once');
    await progress.settled();
    expect(sent.map((n) => [n.method, n.params.progressToken, n.params.progress, n.params.total, n.params.message])).toEqual([
      ['notifications/progress', 0, 0, 10, 'first'],
      ['notifications/progress', 0, 3, 10, 'after the interval'],
      ['notifications/progress', 0, 4, 10, 'held back'],
      ['notifications/progress', 0, 10, 10, 'the total, at once'],
    ]);
  });

  it('a client gone does not fail the call', async () => {
    const { ctx } = context('t');
    (ctx.mcpReq as { notify: unknown }).notify = () => Promise.reject(new Error('closed'));
    const progress = progressOf(ctx)!;
    progress.report(1, 2, 'x');
    await expect(progress.settled()).resolves.toBeUndefined();
  });
});
