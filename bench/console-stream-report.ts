// Prints the console-stream part (bench/console-stream.ts): kept apart from its measure, so the
// bench's parent process loads none of the part's code.
import type { ConsoleStreamFigures } from './console-stream.ts';

const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : '—');
const times = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '—');

export function printConsoleStream(figures: ConsoleStreamFigures): void {
  const { connections, seconds, warmupSeconds, rounds } = figures.settings;
  console.log(
    `\n9. The console's cost to the API: autocannon, ${connections} connections, ${warmupSeconds} s warm-up + ${seconds} s a run, ${rounds} rounds of (no console, one console stream open)`,
  );
  for (const run of figures.runs) {
    console.log(
      `  ${run.request.padEnd(44)} ${run.stream ? 'stream open' : 'no stream  '}  ${String(run.requestsPerSecond).padStart(6)} req/s  p50 ${ms(run.latency.p50).padStart(5)} ms  p99 ${ms(run.latency.p99).padStart(5)} ms${run.stream ? `  (${run.streamEvents.toLocaleString('en-US')} events, ${(run.streamBytes / 1024 / 1024).toFixed(1)} MB to the console)` : ''}`,
    );
  }
  console.log('  with ÷ without (medians):');
  for (const ratio of figures.ratios) {
    const missed = Math.max(ratio.p50, ratio.p99, 1 / ratio.rps) > figures.aim;
    console.log(
      `  ${ratio.request.padEnd(44)} req/s ${times(ratio.rps)}  p50 ${times(ratio.p50)}  p99 ${times(ratio.p99)}${missed ? `  (aim ≤ ${figures.aim}×: not met)` : ''}`,
    );
  }
}
