import type { ServerContext } from '@modelcontextprotocol/server';

/**
 * Progress of a long call, as MCP carries it (spec 2025-06-18 basic/utilities/progress; the same
 * in 2026-07-28 basic/patterns/progress): only when the request's `_meta` holds a
 * `progressToken`, as `notifications/progress` with that token, `progress` growing with every
 * notification, the `total` when known and a message a person reads. Sent the SDK's way,
 * `ctx.mcpReq.notify`, a notification related to the request, so each transport carries it
 * with its request: on stdio beside it, over Streamable HTTP in the request's own event
 * stream (the SDK's handler upgrades the answer to one), on every protocol version it serves.
 */
export interface Progress {
  /** `done` of `total`; a value not above the last one sent is dropped, so what is sent only grows. */
  report(done: number, total: number, message: string): void;
  /**
   * Sends what is held back and waits until everything is sent: called before the result goes,
   * since progress may only name a request still under way.
   */
  settled(): Promise<void>;
}

/**
 * The spec asks both sides to limit how often progress is sent: at most one notification this
 * often, except the one that reaches the total; what comes between is folded into the next.
 */
export const PROGRESS_INTERVAL_MS = 100;

/** The call's progress, or undefined when its request asked for none. */
export function progressOf(ctx: Pick<ServerContext, 'mcpReq'>, now: () => number = performance.now.bind(performance)): Progress | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  let sent = Number.NEGATIVE_INFINITY;
  let sentAt = Number.NEGATIVE_INFINITY;
  let held: { progress: number; total: number; message: string } | undefined;
  let queue = Promise.resolve();
  const send = () => {
    const params = held!;
    held = undefined;
    sent = params.progress;
    sentAt = now();
    // Progress is a courtesy: a client gone or a closed stream must not fail the call.
    queue = queue.then(() => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...params } })).catch(() => undefined);
  };
  return {
    report(progress, total, message) {
      if (progress <= sent) return;
      held = { progress, total, message };
      if (progress >= total || now() - sentAt >= PROGRESS_INTERVAL_MS) send();
    },
    settled() {
      if (held) send();
      return queue;
    },
  };
}
