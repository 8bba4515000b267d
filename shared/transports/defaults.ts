import { DEFAULT_MAX_BODY_BYTES } from '../http/answer-size.ts';

/**
 * What a transport does when its settings leave a value out (assumption `limits`): the one
 * table both transports read, the CLI's `--timeout` and `--retries` default to, and the typed
 * client's and the CLI's interface reports list. Code and scripts that leave a setting out get
 * these, so changing one changes what they do.
 */
export const TRANSPORT_DEFAULTS = {
  /** Whole-request time limit per attempt, the body included. */
  timeoutMs: 15_000,
  /** Extra attempts after the first, for what cannot be done twice. */
  retries: 2,
  /** First backoff delay, doubled each attempt. */
  backoffMs: 500,
  /** A longer `Retry-After` is not waited for: the caller gets the RateLimitError instead. */
  maxRetryAfterMs: 60_000,
  /** The most bytes of one answer read. */
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
} as const;
