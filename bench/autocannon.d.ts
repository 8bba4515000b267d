// autocannon ships no types and adding @types/autocannon is ruled out, so this declares the
// part of its programmatic API the benchmark uses (checked against autocannon 9's lib/run.js).
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** A run before the measured one, with its own clients; its responses go to another tracker. */
    warmup?: { duration: number };
    /** Seconds per request. */
    timeout?: number;
  }

  /**
   * Off the main thread autocannon does not aggregate (lib/run.js checks `isMainThread`), so
   * in our worker it resolves with these raw counters; latency histograms come encoded and unused.
   */
  interface RawResult {
    /** Seconds, to 10 ms. */
    duration: number;
    totalCompletedRequests: number;
    totalRequests: number;
    /** Includes timeouts. */
    errors: number;
    timeouts: number;
    mismatches: number;
    resets: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    warmup?: RawResult;
  }

  interface Instance extends PromiseLike<RawResult> {
    /** Fired for every response of the measured run; `responseTimeMs` is from hrtime, fractional. */
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): Instance;
    stop(): void;
  }

  export default function autocannon(options: Options): Instance;
}
