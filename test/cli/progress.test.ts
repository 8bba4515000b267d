import { describe, expect, it } from '@jest/globals';
import { Output } from '../../cli/output.ts';
import { barSizeFor, startProgress } from '../../cli/progress.ts';
import { Capture } from './support.ts';

/** The bar fits the terminal's width, and is drawn only when a person watches both outputs. */
const terminal = (columns: number) => Object.assign(new Capture(true), { columns });
// The visible text of what cli-progress drew: cursor moves and line clears taken out.
const visibleLines = (text: string) => text.split(/\u001b(?:\[[0-9;?]*[A-Za-z]|[0-9])|\r|\n/).filter(Boolean);

describe('the progress bar', () => {
  it.each([100, 60, 40, 28])('every line it draws fits a terminal %i columns wide', (columns) => {
    const stream = terminal(columns);
    const bar = startProgress(stream, 'Syncing', 1234);
    bar.tick();
    bar.stop();
    const lines = visibleLines(stream.text);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.length).toBeLessThan(columns);
    expect(lines[0]).toMatch(/^Syncing \[[█░]+\] \d+\/1234$/);
  });

  it('uses at most 30 columns for the bar, and none when a short bar does not fit', () => {
    expect(barSizeFor(200, 'Syncing', 10)).toBe(30);
    expect(barSizeFor(undefined, 'Syncing', 10)).toBe(30);
    expect(barSizeFor(20, 'Syncing', 1234)).toBeUndefined();
    const stream = terminal(20);
    startProgress(stream, 'Syncing', 1234).stop();
    expect(stream.text).toBe('');
  });

  it('is drawn only when both stdout and stderr are terminals', () => {
    const cases = [
      [true, true, true],
      [false, true, false],
      [true, false, false],
      [false, false, false],
    ] as const;
    for (const [stdoutTty, stderrTty, drawn] of cases) {
      const stderr = new Capture(stderrTty);
      const out = new Output({ stdout: new Capture(stdoutTty), stderr }, { json: false, secrets: [] });
      const bar = startProgress(out.progressStream(), 'Looking up', 3);
      bar.tick();
      bar.stop();
      expect({ stdoutTty, stderrTty, drawn: stderr.text !== '' }).toEqual({ stdoutTty, stderrTty, drawn });
    }
  });
});
