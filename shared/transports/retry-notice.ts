/** What a transport tells before each retry (the CLI writes it on stderr); never the request, whose headers carry the key. */
export interface RetryNotice {
  /** The attempt about to be made (2 for the first retry) and how many there can be in all. */
  attempt: number;
  of: number;
  /** How long it waits first: Retry-After when the service sent one, else the backoff. */
  delayMs: number;
  /** The HTTP status that is retried; undefined when no answer came. */
  status?: number;
  /** The network error's code when no answer came (ECONNRESET, ETIMEDOUT, ...). */
  code?: string;
}
