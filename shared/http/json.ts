/**
 * Deepest nesting of arrays and objects an answer may have. The service's documented answers
 * are three levels deep; a value nested 100,000 deep parses (V8's JSON.parse does not recurse)
 * but then overflows the stack of everything that walks it: JSON.stringify, String(),
 * zod, Zapier's output cleaning, Make's IML. So such an answer is refused as it arrives.
 */
export const MAX_JSON_DEPTH = 100;

export type ParsedJson = { ok: true; value: unknown } | { ok: false; reason: 'syntax' | 'depth' };

/** The deepest nesting of `[`/`{` in a JSON text, counted without recursion; strings are skipped. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** JSON.parse, with answers nested deeper than `MAX_JSON_DEPTH` refused before they are built. */
export function parseJsonAnswer(text: string): ParsedJson {
  if (jsonDepth(text) > MAX_JSON_DEPTH) return { ok: false, reason: 'depth' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'syntax' };
  }
}

/**
 * Whether a value already built (a hook body a platform parsed for us) is nested deeper than
 * `limit`, found without recursion: it stops at the first branch past the limit, so even a
 * value that loops ends.
 */
export function nestedDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(next) ? next : Object.values(next)) pending.push([child, depth + 1]);
  }
  return false;
}
