/**
 * How a long-running process of ours stops when asked (SIGTERM from `docker stop`, a
 * Kubernetes rolling update or systemd; Ctrl-C): the one rule every server and watcher follows.
 *
 * 1. The first request to stop starts the drain: `stopping` aborts, nothing new is taken on,
 *    and `endStreams` ends the long-lived streams (server-sent events) that would otherwise
 *    hold it open for ever.
 * 2. The work in flight (`begin()` … its end) finishes and answers.
 * 3. At the deadline (`deadlineMs`, under the 30 s a container manager waits before SIGKILL),
 *    `deadline` aborts: work still running is cut, and answers that it was (a write "may have
 *    been done"). It gets `answerGraceMs` more to say so; whatever still runs then is
 *    abandoned (`settled` reports `abandoned`).
 * 4. A second request to stop ends the process at once: exit 128 + the signal's number (130
 *    for SIGINT, 143 for SIGTERM), as a shell reports it. A copy of the first that arrives
 *    within SAME_REQUEST_MS (npm passing on a terminal's Ctrl-C) is not a second request.
 */

/** The deadline when none is given: inside the 30 s Kubernetes (`terminationGracePeriodSeconds`) and `docker stop` wait. */
export const DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 25;
/** The longest deadline accepted: a stop that takes longer is no longer a stop. */
export const MAX_SHUTDOWN_TIMEOUT_SECONDS = 3600;
/** After the deadline: the time work that was cut has to write its answer. */
export const DEFAULT_ANSWER_GRACE_MS = 2_000;
/**
 * A signal this soon after the first is the same request, not a second one: a terminal's
 * Ctrl-C reaches both `npm run` and the process under it, and npm passes its copy on too.
 */
export const SAME_REQUEST_MS = 250;

const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/** The exit code a shell gives a process ended by `signal`: 128 + its number (SIGINT 130, SIGTERM 143). */
export const exitCodeForSignal = (signal: string): number => 128 + (SIGNAL_NUMBERS[signal] ?? 15);

export interface DrainOptions {
  /** How long the work in flight may take once a stop was asked, in milliseconds. */
  readonly deadlineMs: number;
  /** After the deadline, how long cut work has to answer (default 2 s). */
  readonly answerGraceMs?: number;
  /** The process signals that ask for a stop (default SIGTERM and SIGINT). */
  readonly signals?: readonly NodeJS.Signals[];
  /** Another way of asking (the CLI's Ctrl-C, which its launcher turns into an abort). Counted as SIGINT. */
  readonly stopWhen?: AbortSignal | undefined;
  /**
   * Ends long-lived streams (server-sent events, a watch's open response) at the start of the
   * drain: they never finish on their own, and must not hold it open until the deadline.
   */
  readonly endStreams?: () => void;
  /** What a second request to stop does (default: `process.exit(code)`). */
  readonly exit?: (code: number) => void;
  /** A line for the log (stderr): what the drain is doing. */
  readonly note?: (text: string) => void;
  /** What is closing, as the notes name it (default: "the server"). */
  readonly what?: string;
}

export interface DrainOutcome {
  /** What asked for the stop: `SIGTERM`, `SIGINT`, or the reason given to `stop`. */
  readonly reason: string;
  /** Pieces of work still running at the deadline (cut, and told so). */
  readonly cut: number;
  /** Pieces of work still running after the grace that followed the deadline. */
  readonly abandoned: number;
}

export interface Drain {
  /** Aborted once a stop was asked: take nothing new on. */
  readonly stopping: AbortSignal;
  /** Aborted at the deadline: cut what still runs, and answer that it was cut. */
  readonly deadline: AbortSignal;
  /** Counts one piece of work (a request, a call, a look) as in flight; call the result when it has answered. */
  begin(): () => void;
  /** Runs `work` counted as in flight. */
  track<T>(work: () => Promise<T>): Promise<T>;
  readonly inFlight: number;
  /** Asks for a stop, as a signal does; a second request ends the process. */
  stop(reason: string): void;
  /** Resolves once a stop was asked and the work in flight has answered (or was cut, or abandoned). */
  readonly settled: Promise<DrainOutcome>;
  /** Stops listening to the signals and clears the timers (once the process is done with the drain). */
  dispose(): void;
}

export function createDrain(options: DrainOptions): Drain {
  const stopping = new AbortController();
  const deadline = new AbortController();
  const signals = options.signals ?? (['SIGTERM', 'SIGINT'] as const);
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const grace = options.answerGraceMs ?? DEFAULT_ANSWER_GRACE_MS;
  let inFlight = 0;
  let reason: string | undefined;
  let askedAt = 0;
  let cut = 0;
  let settle: (outcome: DrainOutcome) => void = () => undefined;
  const settled = new Promise<DrainOutcome>((resolve) => {
    settle = resolve;
  });
  const timers: NodeJS.Timeout[] = [];
  let done = false;

  const finish = (abandoned: number) => {
    if (done || reason === undefined) return;
    done = true;
    for (const timer of timers) clearTimeout(timer);
    settle({ reason, cut, abandoned });
  };
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

  const stop = (why: string) => {
    if (reason !== undefined) {
      if (Date.now() - askedAt < SAME_REQUEST_MS) return;
      options.note?.(`${why} again: stopping at once.`);
      exit(exitCodeForSignal(why));
      return;
    }
    reason = why;
    askedAt = Date.now();
    const what = options.what ?? 'the server';
    options.note?.(
      inFlight
        ? `${why}: closing ${what}; ${inFlight} in flight ${inFlight === 1 ? 'finishes' : 'finish'} first (at most ${seconds(options.deadlineMs)}; another signal stops it at once).`
        : `${why}: closing ${what}`,
    );
    stopping.abort(why);
    try {
      options.endStreams?.();
    } catch (error) {
      options.note?.(`Could not end the open streams: ${error instanceof Error ? error.message : String(error)}`);
    }
    timers.push(
      setTimeout(() => {
        cut = inFlight;
        if (cut) options.note?.(`The ${seconds(options.deadlineMs)} shutdown deadline has passed: cutting ${cut} still in flight.`);
        deadline.abort('deadline');
        timers.push(setTimeout(() => finish(inFlight), grace).unref());
      }, options.deadlineMs).unref(),
    );
    if (inFlight === 0) finish(0);
  };

  const listeners = signals.map((signal) => {
    const listener = () => stop(signal);
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  const onAbort = () => stop('SIGINT');
  if (options.stopWhen?.aborted) queueMicrotask(onAbort);
  else options.stopWhen?.addEventListener('abort', onAbort, { once: true });

  const begin = () => {
    inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      inFlight--;
      if (inFlight === 0 && reason !== undefined) finish(0);
    };
  };

  return {
    stopping: stopping.signal,
    deadline: deadline.signal,
    begin,
    async track(work) {
      const end = begin();
      try {
        return await work();
      } finally {
        end();
      }
    },
    get inFlight() {
      return inFlight;
    },
    stop,
    settled,
    dispose() {
      for (const [signal, listener] of listeners) process.off(signal, listener);
      options.stopWhen?.removeEventListener('abort', onAbort);
      for (const timer of timers) clearTimeout(timer);
    },
  };
}
