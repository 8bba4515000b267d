import cliProgress from 'cli-progress';
import type { OutStream } from './out-stream.ts';

export interface Progress {
  tick(): void;
  stop(): void;
}

const silent: Progress = { tick() {}, stop() {} };
const MAX_BAR = 30;
const MIN_BAR = 5;

/**
 * The bar's width so the whole line (`label [bar] value/total`) fits the terminal, one column
 * spare (a line that fills the last column wraps on some terminals); undefined when even a
 * short bar does not fit. An unknown width (80 is the usual default) gives the full bar.
 */
export function barSizeFor(columns: number | undefined, label: string, total: number): number | undefined {
  const counter = String(total).length * 2 + 1;
  const room = (columns ?? 80) - 1 - label.length - ' [] '.length - counter;
  return room < MIN_BAR ? undefined : Math.min(MAX_BAR, room);
}

/**
 * A progress bar on stderr when it is a terminal; nothing at all on a pipe or a file
 * (cli-progress writes nothing to a stream that is not a TTY). Cleared when it stops, so
 * the report that follows stands alone.
 */
export function startProgress(stream: OutStream, label: string, total: number): Progress {
  if (!stream.isTTY || total === 0) return silent;
  const barsize = barSizeFor(stream.columns, label, total);
  if (barsize === undefined) return silent;
  const bar = new cliProgress.SingleBar(
    {
      // cli-progress only needs write, isTTY and columns (it moves the cursor with readline's escape codes).
      stream: stream as unknown as NodeJS.WritableStream,
      format: `${label} [{bar}] {value}/{total}`,
      barsize,
      clearOnComplete: true,
      hideCursor: false,
      gracefulExit: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  let stopped = false;
  return {
    tick: () => bar.increment(),
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}
