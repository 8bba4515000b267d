// How the page puts a text from the sandbox on screen: always as text (names are untrusted: the
// seed and API callers write them), each invisible control shown as its escape by the rule of
// every surface (shared/visible-controls.ts), and a text longer than the API allows shortened.
import { LONGEST } from '../../../shared/schemas/text-limits.ts';
import { escapeOf, invisibleControlsIn, showInvisibleControls } from '../../../shared/visible-controls.ts';
import { shortened } from '../shorten.ts';

/** The longest each kind of text is shown: what the API takes for it; an organization's name, which the API never takes, as a team's. */
export const SHOWN = {
  ...LONGEST,
  orgName: LONGEST.teamName,
  /** A path or a hook URL: the feed already cuts them at 500. */
  path: 500,
  /** A short word the page colours or sorts by (a status, a role, a platform). */
  word: 40,
} as const;

const hex = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Appends `text` to `node`: plain text, with each invisible control as its escape in a marked
 * span (`\u202e`, so `Deploy \u202Egnp.exe` never reads "Deploy exe.png"), never applied.
 */
function appendShown(node: HTMLElement, text: string): void {
  let from = 0;
  for (const { index, char } of invisibleControlsIn(text)) {
    if (index > from) node.append(text.slice(from, index));
    const mark = document.createElement('span');
    mark.className = 'control';
    mark.textContent = escapeOf(char);
    mark.title = `${hex(char)}, an invisible control character, shown here instead of applied`;
    node.append(mark);
    from = index + char.length;
  }
  if (from < text.length) node.append(text.slice(from));
}

/**
 * Puts `text` into `node` as the page shows sandbox text. Longer than `longest` (what the API
 * allows for it), it is cut there with `…`, and its whole text (as far as the feed sends it) is
 * the node's title, its controls shown too: a hover or a screen reader reaches it, and laying
 * out 100 KB of a name never freezes the page.
 */
export function putText(node: HTMLElement, text: string, longest: number): void {
  if (text.length <= longest) {
    appendShown(node, text);
    return;
  }
  appendShown(node, shortened(text, longest).slice(0, -1));
  const more = document.createElement('span');
  more.className = 'cut';
  more.textContent = '…';
  node.append(more);
  node.title = `${showInvisibleControls(text)}\n(shortened: longer than the ${longest} characters the API takes)`;
}

/** `text` as one line of the page's own words (a message quoting the sandbox): controls shown, cut at `longest`. */
export const asLine = (text: string, longest: number): string => showInvisibleControls(shortened(text, longest));
