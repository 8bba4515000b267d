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
      throw new RangeError(`Cannot advance the clock by ${ms} ms: the time would leave the years 0000 to 9999 (${RANGE})`);
    }
    if (this.mode === 'fixed') this.fixedAt += ms;
    else this.offsetMs += ms;
  }
}

/**
 * The years 0000 to 9999: what ISO 8601 and RFC 3339 write with four digits. Beyond, a Date
 * still holds the time but writes it as `+010000-01-01T…`, which the sandbox's own state file,
 * seeds and the connectors' time checks would not take back.
 */
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');
const RANGE = '0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z';
const isTime = (ms: number) => ms >= EARLIEST && ms <= LATEST;

function parseTime(at: string | Date): number {
  const time = new Date(at).getTime();
  if (Number.isNaN(time)) throw new RangeError(`Not a time: ${String(at)}; use ISO 8601, e.g. 2026-11-02T08:00:00Z`);
  if (!isTime(time)) throw new RangeError(`The sandbox's clock keeps to the years 0000 to 9999 (${RANGE}), not ${String(at)}`);
  return time;
}
