import type { ServerContext } from '@modelcontextprotocol/server';
import { type Progress, progressOf } from './progress.ts';

/**
 * What a tool call runs under besides its arguments: when to stop, which requests to abort, and
 * where its progress goes.
 */
export interface ToolCall {
  /** The caller's cancellation (`notifications/cancelled`) and the shutdown deadline: the call stops and says so. */
  readonly signal: AbortSignal;
  /** What the call's HTTP requests are aborted by: `signal`, or the tool letting go of requests it no longer needs. */
  readonly requests: AbortSignal;
  /** Aborts the requests still in flight (their answers are not needed any more). */
  readonly release: () => void;
  /** Turns aborted when the call has had the time it may take: a long read then answers with what it has. */
  readonly timeUp: AbortSignal;
  readonly progress: Progress | undefined;
}

/**
 * The time a call may take before a long read answers with what it has and how to go on: well
 * inside the 60 s a client made with the MCP SDK waits by default (`DEFAULT_REQUEST_TIMEOUT_MSEC`),
 * so the answer comes even when the service's rate limit asks to wait a whole minute, with time
 * left for the model to call again.
 */
export const ANSWER_WITHIN_MS = 25_000;

export function toolCall(ctx: Pick<ServerContext, 'mcpReq'>, signal: AbortSignal, answerWithinMs = ANSWER_WITHIN_MS): ToolCall {
  const released = new AbortController();
  return {
    signal,
    requests: AbortSignal.any([signal, released.signal]),
    release: () => released.abort(),
    // AbortSignal.timeout's timer does not keep the process alive.
    timeUp: AbortSignal.timeout(answerWithinMs),
    progress: progressOf(ctx),
  };
}
