import * as z from 'zod/mini';
import { InvalidInputError } from '../errors.ts';
import type { WalkPosition } from './by-team.ts';

/**
 * A position of the on-call walk (by-team.ts) as the opaque text a caller hands back to go on:
 * base64url of a small JSON document, the way MCP's own list cursors are opaque. It holds the
 * team to go on from (by id, so a reordered team list moves nothing), how many of its people
 * were given, and the arguments that chose the teams: a cursor is refused with any other
 * arguments, since it would skip into another list. It holds no key and nothing a later call
 * trusts beyond a place to start reading: a made-up one reads from somewhere else in the
 * caller's own organization, no more.
 */

const VERSION = 1;
/** An id longer than this is cut: the walk then starts at or before its team, so a cut id repeats people, never skips any. */
const MAX_ID_CHARS = 1_000;
/** The most characters a cursor this module writes can have, with room for the arguments it is bound to. */
export const MAX_CURSOR_CHARS = 2_000;

const cursorSchema = z.object({
  v: z.literal(VERSION),
  t: z.string().check(z.maxLength(MAX_ID_CHARS)),
  s: z.int().check(z.minimum(0), z.maximum(1_000_000)),
  q: z.string(),
});

/** The arguments a walk's teams were chosen by, in one comparable form: trimmed, letter case ignored, empty ones left out. */
function scopeOf(args: Readonly<Record<string, string | undefined>>): string {
  const entries = Object.entries(args)
    .map(([key, value]) => [key, value?.trim().toLowerCase() ?? ''] as const)
    .filter(([, value]) => value !== '')
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(entries);
}

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

export function encodeCursor(position: WalkPosition, scope: Readonly<Record<string, string | undefined>>): string {
  return base64url(JSON.stringify({ v: VERSION, t: position.teamId.slice(0, MAX_ID_CHARS), s: position.skip, q: scopeOf(scope) }));
}

/**
 * The position a cursor names, if it is one `encodeCursor` wrote for the same arguments;
 * anything else is refused before any request, saying what to do instead.
 */
export function decodeCursor(cursor: string, scope: Readonly<Record<string, string | undefined>>, argument = 'cursor'): WalkPosition {
  const refuse = (problem: string, advice: string) => new InvalidInputError(`${argument} ${problem}: ${advice}`, [{ field: argument, problem }], 'input');
  const restart = `pass the next_cursor of the previous result unchanged, or leave ${argument} out to start from the first team`;
  let parsed: unknown;
  try {
    if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse('is not a cursor this server gave', restart);
  }
  const read = z.safeParse(cursorSchema, parsed);
  if (!read.success) throw refuse('is not a cursor this server gave', restart);
  if (read.data.q !== scopeOf(scope)) {
    const names = Object.keys(scope).join(' and ');
    throw refuse(
      `continues a list read with other ${names}`,
      `call again with the same ${names} as the call that gave it, or leave ${argument} out to start from the first team`,
    );
  }
  return { teamId: read.data.t, skip: read.data.s };
}
