import { showInvisibleControls } from '../shared/visible-controls.ts';

/**
 * Text the service sent (team and person names, e-mails, error bodies) is untrusted once it
 * reaches a terminal: each control, bidi and zero-width character is shown as a visible escape
 * instead (`\x1b`, `\r`, `\u202e`), by the rule every surface shares
 * (`shared/visible-controls.ts`), so a person sees that the name holds one and nothing is lost.
 * Backslashes are left as they are: a name that spells `\x1b` in letters is inert text either
 * way. No `--json` output passes here: JSON keeps the text as it came, its controls written
 * as JSON's own escapes (output.ts).
 */
export const forTerminal = (text: string): string => showInvisibleControls(text);
