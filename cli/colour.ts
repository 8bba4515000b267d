import { styleText } from 'node:util';
import type { OutStream } from './out-stream.ts';
import { ENV, type Env } from './settings.ts';

/**
 * Whether to colour what goes to `stream`: never with NO_COLOR set to anything non-empty
 * (no-color.org) or TERM=dumb; always with FORCE_COLOR set to anything but 0/false (the
 * convention Node and most CLIs follow); otherwise only on a terminal. `styleText` applies
 * the same rule to real streams; ours are also tests' buffers, so it is spelled out here.
 */
export function wantsColour(stream: OutStream, env: Env): boolean {
  if (env[ENV.noColor]) return false;
  const force = env[ENV.forceColor];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return Boolean(stream.isTTY) && env[ENV.term] !== 'dumb';
}

export type Paint = (format: Parameters<typeof styleText>[0], text: string) => string;

export const paintFor =
  (enabled: boolean): Paint =>
  (format, text) =>
    enabled ? styleText(format, text, { validateStream: false }) : text;
