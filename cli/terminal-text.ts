import { escapeOf, showInvisibleControls } from '../shared/visible-controls.ts';

/**
 * Text the service sent (team and person names, e-mails, error bodies) is untrusted once it
 * reaches a terminal: each control, bidi and zero-width character is shown as a visible escape
 * instead (`\x1b`, `\r`, `\u202e`), by the rule every surface shares
 * (`shared/visible-controls.ts`), so a person sees that the name holds one and nothing is lost.
 * Backslashes are left as they are: a name that spells `\x1b` in letters is inert text either
 * way. No `--json` output passes here: JSON is for programs, and a consumer that prints it
 * escapes it itself.
 */
export const forTerminal = (text: string): string => showInvisibleControls(text, escapeOf);

/** A character as JSON's `\uXXXX` escapes, one per UTF-16 unit (two beyond the first plane). */
const jsonEscape = (char: string) =>
  char
    .split('')
    .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');

/**
 * A JSON line for a terminal (`on-call watch` prints one per change): JSON.stringify escapes
 * C0 controls but leaves DEL, C1, the bidi and the zero-width controls raw; they are written as
 * `\uXXXX` escapes here, which every JSON parser reads back as the same characters, so the value
 * a program reads is unchanged.
 */
export const jsonLineForTerminal = (value: unknown): string => showInvisibleControls(JSON.stringify(value), jsonEscape);
