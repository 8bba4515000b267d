import cliProgress from 'cli-progress';
import type { OutStream } from './output.ts';

export interface Progress {
  tick(): void;
  stop(): void;
}

const silent: Progress = { tick() {}, stop() {} };

/**
 * A progress bar on stderr when it is a terminal; nothing at all on a pipe or a file
 * (cli-progress writes nothing to a stream that is not a TTY). Cleared when it stops, so
 * the report that follows stands alone.
 */
export function startProgress(stream: OutStream, label: string, total: number): Progress {
  if (!stream.isTTY || total === 0) return silent;
  const bar = new cliProgress.SingleBar(
    {
      // cli-progress only needs write, isTTY and columns (it moves the cursor with readline's escape codes).
      stream: stream as unknown as NodeJS.WritableStream,
      format: `${label} [{bar}] {value}/{total}`,
      barsize: 30,
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
