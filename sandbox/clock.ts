export type ClockOptions = { mode: 'fixed'; start?: string } | { mode: 'real' };

/**
 * The sandbox's idea of now. A fixed clock (tests, recordings) moves only when told, so
 * rotations and timestamps are repeatable; a real clock follows wall time, shifted by
 * whatever `set`/`advance` asked for.
 */
export class SandboxClock {
  readonly mode: 'fixed' | 'real';
  /** Fixed mode: the time itself. Real mode: the shift from wall time. */
  private fixedAt: number;
  private offsetMs = 0;

  constructor(options: ClockOptions, defaultStart: string) {
    this.mode = options.mode;
    this.fixedAt = parseTime(options.mode === 'fixed' ? (options.start ?? defaultStart) : defaultStart);
  }

  now(): Date {
    return new Date(this.mode === 'fixed' ? this.fixedAt : Date.now() + this.offsetMs);
  }

  set(at: string | Date): void {
    const time = parseTime(at);
    if (this.mode === 'fixed') this.fixedAt = time;
    else this.offsetMs = time - Date.now();
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || !isTime(this.now().getTime() + ms)) {
      throw new RangeError(`Cannot advance the clock by ${ms} ms: the time would leave the range a date can hold`);
    }
    if (this.mode === 'fixed') this.fixedAt += ms;
    else this.offsetMs += ms;
  }
}

/** ±100,000,000 days around 1970: what a JavaScript Date can hold. */
const isTime = (ms: number) => Math.abs(ms) <= 8.64e15;

function parseTime(at: string | Date): number {
  const time = new Date(at).getTime();
  if (Number.isNaN(time) || !isTime(time)) throw new RangeError(`Not a time: ${String(at)}; use ISO 8601, e.g. 2026-11-02T08:00:00Z`);
  return time;
}
