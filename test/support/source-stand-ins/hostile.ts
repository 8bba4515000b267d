import type { OrgPerson, VendorName } from './org.ts';
import type { Answer } from './stand-in.ts';

/**
 * A vendor whose text attacks whoever reads it, for the import's hostile tests: people whose
 * names, e-mails and roles hold a right-to-left override (U+202E: "Ops \u202Esyap" reads "Ops
 * pays"), zero-width characters, terminal escapes (OSC 52 writes the clipboard, CSI 2J clears
 * the screen, BEL, the one-byte C1 CSI) and the import's own key; and an error body, in each
 * vendor's own shape, that echoes the key beside such characters.
 */

/** What a terminal would act on: OSC 52 (clipboard), CSI 2J (clear screen), C1 CSI. */
export const TERMINAL_ATTACK = '\u001b]52;c;cm0gLXJm\u0007\u001b[2J\u009b31m';

/** Any of the vendor's characters raw: what a person must never meet in what the import shows. */
export const RAW_CONTROL = /[\u202e\u202c\u200b\u2060\u001b\u0007\u009b]/;
/**
 * The vendor's characters raw, on a terminal's stderr, where the CLI's own progress bars and
 * colours are escape sequences too: the vendor's bidi, zero-width, BEL, C1 CSI, OSC 52 and clear screen.
 */
export const RAW_VENDOR_CONTROL = /[\u202e\u202c\u200b\u2060\u0007\u009b]|\u001b\]52|\u001b\[2J/;

export interface HostilePeople {
  readonly org: OrgPerson[];
  /** The people the file must hold, exactly as the vendor named them. */
  readonly written: Readonly<Record<string, string>>;
}

const person = (id: string, email: string, name: string, role: string): OrgPerson => ({
  id,
  email,
  name,
  role,
  state: 'active',
  phones: [{ cc: '49', number: `1512000${id.slice(-4)}`, method: 'sms', enabled: true }],
});

/** The people of a hostile vendor; `key` is the import's key, which some of them echo. */
export function hostilePeople(source: VendorName, key: string): HostilePeople {
  const roles = { opsgenie: 'User', pagerduty: 'user', 'grafana-oncall': 'editor' } as const;
  const role = roles[source];
  const org = [
    person('HX0001', 'ops@acme.example', 'Ops \u202Esyap\u202C', role),
    person('HX0002', 'pay@acme.example', 'Pay\u200Bments\u2060 Lead', role),
    // A custom role the summary names: reordered, and with the key in it.
    person('HX0003', 'lead@acme.example', 'Lee Lead', 'On-call \u202Edael\u202C'),
    person('HX0004', 'keyrole@acme.example', 'Kay Role', `Lead ${key}`),
    // Left out, each listed with why: a terminal escape in the name, an e-mail the directory
    // cannot take, the key in a name and in an e-mail.
    person('HX0005', 'esc@acme.example', `Eve${TERMINAL_ATTACK}`, role),
    person('HX0006', 'eve\u202Egro.elpmaxe@acme.example', 'Eve Mail', role),
    person('HX0007', 'echo@acme.example', `Echo ${key}`, role),
    person('HX0008', `${key}@acme.example`, 'Mail Echo', role),
  ];
  return {
    org,
    written: {
      'ops@acme.example': 'Ops \u202Esyap\u202C',
      'pay@acme.example': 'Pay\u200Bments\u2060 Lead',
      'lead@acme.example': 'Lee Lead',
      'keyrole@acme.example': 'Kay Role',
    },
  };
}

/** The vendor's words of a refusal: the key, a reordering override, a zero-width space and a terminal escape. */
export const hostileWords = (key: string) => `Key ${key} refused: \u202Etnuocca\u202C\u200B locked${TERMINAL_ATTACK}`;

/** A 403 in the vendor's own error shape (Opsgenie `{message, requestId}`, PagerDuty `{error}`, Grafana OnCall's `{detail}`), quoting `hostileWords`. */
export function hostileRefusal(source: VendorName, key: string): Answer {
  const words = hostileWords(key);
  if (source === 'opsgenie') return { status: 403, body: { message: words, took: 0.001, requestId: `req-\u202E${key.slice(-8)}` } };
  if (source === 'pagerduty') return { status: 403, body: { error: { message: words, code: 2010, errors: [`\u001b[2J${key}`] } } };
  return { status: 403, body: { detail: words } };
}
