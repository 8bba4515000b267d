import { controlCandidates, escapeOf } from '../../shared/visible-controls.ts';
import { imlString } from './iml-expressions.ts';

/**
 * Service text shown, never applied (shared/visible-controls.ts), in IML. Make cannot run the
 * shared code, and custom IML functions are not used (Make enables them only on request:
 * docs/make.md), so the rule is written out with the one built-in that transforms text, `replace`
 * with a `/.../g` pattern, which Make documents as replacing every match (help.make.com, text
 * functions): one call per character of the shared rule, each by its escape (`\u202e`), in
 * the rule's own words. Generated from the rule's table (`controlCandidates`), never listed here.
 *
 * What the shared rule keeps in context (the joiners of Persian and Indic words and of emoji,
 * the tags of a subdivision flag) is shown here too: Make's patterns take the flags g, i and m
 * only, so no Unicode property class can tell a script or an emoji. Shown, never applied: the
 * safe side.
 */

const hex4 = (unit: number) => unit.toString(16).padStart(4, '0');

/**
 * A character as a pattern: each UTF-16 unit as `\uXXXX`, so the app's files hold no raw control,
 * and a character beyond the first plane is its two surrogates (without the `u` flag, a
 * pattern matches units).
 */
const patternOf = (char: string) =>
  `/${char
    .split('')
    .map((unit) => `\\u${hex4(unit.charCodeAt(0))}`)
    .join('')}/g`;

let calls: readonly (readonly [string, string])[] | undefined;
/** Each character's pattern and escape, as IML arguments. */
const replacements = () => {
  calls ??= controlCandidates().map((char) => [patternOf(char), imlString(escapeOf(char))] as const);
  return calls;
};

/**
 * `text` (an IML expression giving text) with every invisible control shown as its escape. The
 * escapes are printable ASCII, which no later call matches, so the order of the calls is free.
 */
export function showControlsIml(text: string): string {
  return replacements().reduce((inner, [pattern, shown]) => `replace(${inner}, ${pattern}, ${shown})`, text);
}
