import { describe, expect, it } from '@jest/globals';
import { wantsColour } from '../../cli/colour.ts';
import { run } from './support.ts';

// Colour follows the conventions people set once for every tool: NO_COLOR (no-color.org:
// "when present and not an empty string, prevents the addition of ANSI color"), FORCE_COLOR
// (Node's own rule: any value but 0/false forces it), and otherwise only on a terminal.

const RED_BOLD_ERROR = /\u001b\[1m\u001b\[31merror:\u001b\[39m\u001b\[22m/;
const ANY_ESCAPE = /\u001b\[/;
const tty = { write: () => true, isTTY: true };
const pipe = { write: () => true, isTTY: false };

describe('colour', () => {
  it.each([
    ['a terminal', tty, {}, true],
    ['a pipe', pipe, {}, false],
    ['a terminal with NO_COLOR=1', tty, { NO_COLOR: '1' }, false],
    ['a terminal with an empty NO_COLOR', tty, { NO_COLOR: '' }, true],
    ['a terminal with TERM=dumb', tty, { TERM: 'dumb' }, false],
    ['a pipe with FORCE_COLOR=1', pipe, { FORCE_COLOR: '1' }, true],
    ['a pipe with FORCE_COLOR=0', pipe, { FORCE_COLOR: '0' }, false],
    ['a terminal with FORCE_COLOR=false', tty, { FORCE_COLOR: 'false' }, false],
    ['a pipe with FORCE_COLOR and NO_COLOR', pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }, false],
  ] as const)('%s: %s', (_what, stream, env, expected) => {
    expect(wantsColour(stream, env)).toBe(expected);
  });

  it('an error on a terminal starts with a red "error:"; on a pipe, with NO_COLOR or --json, no escape at all', async () => {
    const missingKey = ['teams'];
    const onTerminal = await run(missingKey, { tty: true });
    expect(onTerminal.code).toBe(3);
    expect(onTerminal.stderr).toMatch(RED_BOLD_ERROR);
    expect(onTerminal.stdout).not.toMatch(ANY_ESCAPE);

    for (const [argv, env, tty] of [
      [missingKey, {}, false],
      [missingKey, { NO_COLOR: '1' }, true],
      [[...missingKey, '--json'], { FORCE_COLOR: '1' }, true],
    ] as const) {
      const plain = await run(argv, { env, tty });
      expect(plain.code).toBe(3);
      expect(plain.stderr).not.toMatch(ANY_ESCAPE);
    }
    expect((await run(missingKey, { env: { FORCE_COLOR: '1' } })).stderr).toMatch(RED_BOLD_ERROR);
  });
});
