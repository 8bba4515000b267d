import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { main } from '../../cli/main.ts';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { grafanaOnCall, oncallRateLimited } from '../support/source-stand-ins/grafana-oncall.ts';
import { opsgenie } from '../support/source-stand-ins/opsgenie.ts';
import { expectedDirectory, makeOrg, type OrgPerson } from '../support/source-stand-ins/org.ts';
import { pagerduty } from '../support/source-stand-ins/pagerduty.ts';
import { fault, send, startStandIn } from '../support/source-stand-ins/stand-in.ts';
import { runImport, SOURCE_KEYS, sourceEnv, tempFolder } from './import-support.ts';
import { Capture, run } from './support.ts';

/** What each vendor's users API gives in its own way: states, several numbers, references, paging limits. */

const folder = tempFolder();
afterAll(() => folder.remove());

const person = (over: Partial<OrgPerson> & { id: string; email: string }): OrgPerson => ({
  name: 'A Person',
  role: 'user',
  state: 'active',
  phones: [],
  ...over,
});

describe('Opsgenie', () => {
  const people: OrgPerson[] = [
    person({
      id: 'u1',
      email: 'owner@acme.example',
      name: 'Olga Owner',
      role: 'Owner',
      phones: [{ cc: '90', number: '5001112233', method: 'voice', enabled: true }],
    }),
    person({ id: 'u2', email: 'blocked@acme.example', role: 'Admin', state: 'blocked' }),
    person({ id: 'u3', email: 'invited@acme.example', name: 'Ivy Invited', role: 'Admin', state: 'invited' }),
    person({
      id: 'u4',
      email: 'several@acme.example',
      name: 'Sev Eral',
      role: 'Stakeholder',
      phones: [
        { cc: '1', number: '4155550100', method: 'voice', enabled: false },
        { cc: '1', number: '4155550199', method: 'sms', enabled: true },
        { cc: '44', number: '2079460000', method: 'voice', enabled: true },
      ],
    }),
    person({
      id: 'u5',
      email: 'only-disabled@acme.example',
      name: 'Dee Sabled',
      role: 'On-call lead',
      phones: [{ cc: '33', number: '612345678', method: 'sms', enabled: false }],
    }),
    person({ id: 'u6', email: 'Several@Acme.example', name: 'Same Address', role: 'User' }),
    person({ id: 'u7', email: 'not an address', name: 'Bad Mail' }),
  ];

  /** What the summary says of u4's numbers: the usable SMS one taken, before the disabled voice one. */
  const SEVERAL = {
    email: 'several@acme.example',
    phone: '+14155550199',
    how: 'sms, enabled',
    notTaken: [
      { phone: '+442079460000', how: 'voice, enabled' },
      { phone: '+14155550100', how: 'voice, disabled: Disabled by user' },
    ],
  };

  it('blocked and invited people are left out and listed; a usable number before a disabled one; a custom role is a user', async () => {
    const standIn = await startStandIn(opsgenie(people, SOURCE_KEYS.opsgenie));
    try {
      const out = folder.path('opsgenie.yaml');
      const r = await runImport('opsgenie', standIn, out, ['--json']);
      expect(r.code).toBe(0);
      const doc = r.json();
      expect(doc.skipped).toEqual([
        { id: 'u2', email: 'blocked@acme.example', reason: 'blocked', why: 'blocked in Opsgenie' },
        { id: 'u3', email: 'invited@acme.example', reason: 'invited', why: 'has not accepted their Opsgenie invitation yet' },
        { id: 'u6', email: 'Several@Acme.example', reason: 'duplicate', why: 'the same e-mail as u4, which is kept' },
        { id: 'u7', email: 'not an address', reason: 'unusable', why: expect.stringContaining('email must be') },
      ]);
      expect(doc.summary.skippedBy).toEqual({ blocked: 1, invited: 1, unusable: 1, duplicate: 1, gone: 0 });
      expect(doc.severalNumbers).toEqual([SEVERAL]);
      expect(doc.roles).toEqual(
        expect.arrayContaining([
          { from: 'Owner', to: 'admin', people: 1, known: true },
          { from: 'Stakeholder', to: 'user', people: 1, known: true },
          { from: 'On-call lead', to: 'user', people: 1, known: false },
        ]),
      );
      expect(doc.notes).toContain(
        'Roles the table does not list became user (never admin): On-call lead (1). Make someone an admin in the file if they should be.',
      );
      const read = readSyncFile(out);
      expect(read.ok && read.rows.map((row) => row.values)).toEqual([
        { email: 'only-disabled@acme.example', name: 'Dee Sabled', phone: '+33612345678', role: 'user' },
        { email: 'owner@acme.example', name: 'Olga Owner', phone: '+905001112233', role: 'admin' },
        { email: 'several@acme.example', name: 'Sev Eral', phone: '+14155550199', role: 'user' },
      ]);
      // The contact methods of the people left out are not read.
      expect(standIn.requests.map((seen) => seen.url.pathname).filter((path) => path.endsWith('/contacts'))).toEqual(
        expect.not.arrayContaining(['/v2/users/u2/contacts', '/v2/users/u3/contacts']),
      );
    } finally {
      await standIn.close();
    }
  });

  it('--include-invited keeps people who have not accepted; the human summary says who was left out and why', async () => {
    const standIn = await startStandIn(opsgenie(people, SOURCE_KEYS.opsgenie));
    try {
      const out = folder.path('opsgenie-invited.yaml');
      const r = await runImport('opsgenie', standIn, out, ['--include-invited']);
      expect(r.code).toBe(0);
      expect(r.file).toContain('- email: invited@acme.example\n  name: Ivy Invited\n  phone: ""\n  role: admin\n');
      expect(r.stdout).toContain('  skipped  3: 1 blocked, 1 unusable e-mail or name, 1 e-mail taken by another\n');
      expect(r.stdout).toContain(
        '  several@acme.example  took +14155550199 (sms, enabled); not taken: +442079460000 (voice, enabled), +14155550100 (voice, disabled: Disabled by user)',
      );

      const without = await runImport('opsgenie', standIn, out);
      expect(without.stdout).toContain(
        '  skipped  4: 1 blocked, 1 only invited (--include-invited keeps them), 1 unusable e-mail or name, 1 e-mail taken by another\n',
      );
    } finally {
      await standIn.close();
    }
  });

  it('a user removed while the import reads their contacts is left out as gone', async () => {
    const vendor = opsgenie(people, SOURCE_KEYS.opsgenie);
    const standIn = await startStandIn({
      ...vendor,
      route: (seen, origin) =>
        seen.url.pathname === '/v2/users/u1/contacts' || seen.url.pathname === '/v2/users/u1'
          ? { status: 404, body: { message: 'No user exists with identifier [u1]', took: 0, requestId: 'r' } }
          : vendor.route(seen, origin),
    });
    try {
      const r = await runImport('opsgenie', standIn, folder.path('opsgenie-gone.yaml'), ['--json']);
      expect(r.code).toBe(0);
      expect(r.json().skipped).toContainEqual({ id: 'u1', email: 'owner@acme.example', reason: 'gone', why: 'removed from Opsgenie while the import read it' });
    } finally {
      await standIn.close();
    }
  });

  it("reads the phones from Get User's expand=contact where List Contacts is not served", async () => {
    const standIn = await startStandIn(opsgenie(people, SOURCE_KEYS.opsgenie, { contactsApi: false }));
    try {
      const out = folder.path('opsgenie-expand.yaml');
      const r = await runImport('opsgenie', standIn, out, ['--json']);
      expect(r.code).toBe(0);
      const doc = r.json();
      expect(doc.skipped.map((s: { reason: string }) => s.reason)).not.toContain('gone');
      expect(doc.severalNumbers).toContainEqual(SEVERAL);
      expect(r.file).toContain('- email: owner@acme.example\n  name: Olga Owner\n  phone: "+905001112233"\n  role: admin\n');
      // List Contacts is asked by the first requests at once (four); once Get User has answered in its place, Get User alone.
      const paths = standIn.requests.map((seen) => `${seen.url.pathname}${seen.url.search}`);
      expect(paths.filter((path) => path.endsWith('/contacts')).length).toBeLessThanOrEqual(4);
      // One for each active person (u1, u4, u5, u6, u7): the blocked and the invited are not read.
      expect(paths.filter((path) => path.endsWith('?expand=contact'))).toHaveLength(5);
    } finally {
      await standIn.close();
    }
  });

  it('reads true and false given as text: a blocked person stays out, a disabled number is not taken first', async () => {
    const vendor = opsgenie(people, SOURCE_KEYS.opsgenie);
    const text = (value: unknown): unknown =>
      typeof value === 'boolean'
        ? String(value)
        : Array.isArray(value)
          ? value.map(text)
          : value && typeof value === 'object'
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, text(v)]))
            : value;
    const standIn = await startStandIn({
      ...vendor,
      route: (seen, origin) => {
        const answer = vendor.route(seen, origin);
        return { ...answer, body: text(answer.body) };
      },
    });
    try {
      const r = await runImport('opsgenie', standIn, folder.path('opsgenie-text.yaml'), ['--json']);
      expect(r.code).toBe(0);
      expect(r.json().summary.skippedBy).toMatchObject({ blocked: 1, invited: 1 });
      expect(r.json().severalNumbers).toContainEqual(expect.objectContaining({ email: 'several@acme.example', phone: '+14155550199' }));
    } finally {
      await standIn.close();
    }
  });

  it("a next link carrying the key in its query (Pagination's example writes apiKey=) shows it nowhere, --debug included", async () => {
    const vendor = opsgenie(makeOrg(150, 'opsgenie'), SOURCE_KEYS.opsgenie);
    const standIn = await startStandIn({
      ...vendor,
      route(seen, origin) {
        const answer = vendor.route(seen, origin);
        const paging = (answer.body as { paging?: { next?: string } }).paging;
        if (paging?.next) paging.next = paging.next.replace('?', `?apiKey=${encodeURIComponent(SOURCE_KEYS.opsgenie)}&`);
        return answer;
      },
    });
    try {
      // run() fails the test if the key shows on stdout or stderr; runImport if it is in the file.
      const r = await runImport('opsgenie', standIn, folder.path('opsgenie-key-in-link.yaml'), ['--debug']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('/v2/users?apiKey=[redacted]&limit=100&offset=100 200');
    } finally {
      await standIn.close();
    }
  });

  it('follows pages linked only by the X-Paging-Next header', async () => {
    const org = makeOrg(250, 'opsgenie');
    const standIn = await startStandIn(opsgenie(org, SOURCE_KEYS.opsgenie, { paging: 'headers' }));
    try {
      const r = await runImport('opsgenie', standIn, folder.path('opsgenie-headers.yaml'), ['--json']);
      expect(r.code).toBe(0);
      expect(r.json().summary).toMatchObject({ listed: 250, pages: 3 });
    } finally {
      await standIn.close();
    }
  });

  it('OPSGENIE_API_URL may end with /v2, the version its paths start with', async () => {
    const standIn = await startStandIn(opsgenie(people, SOURCE_KEYS.opsgenie));
    try {
      const r = await runImport('opsgenie', standIn, folder.path('opsgenie-v2.yaml'), [], { OPSGENIE_API_URL: `${standIn.url}/v2/` });
      expect(r.code).toBe(0);
      expect(standIn.requests[0]!.url.pathname).toBe('/v2/users');
    } finally {
      await standIn.close();
    }
  });

  it("a refused key's message says where keys come from and the EU base", async () => {
    const standIn = await startStandIn(opsgenie(people, 'another-key-entirely'));
    try {
      const unknown = await runImport('opsgenie', standIn, folder.path('opsgenie-refused.yaml'), [], {
        OPSGENIE_API_KEY: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      });
      expect(unknown.code).toBe(3);
      expect(unknown.stderr).toContain('Opsgenie refused the key in OPSGENIE_API_KEY (HTTP 401: "Could not authenticate (request req-unauthorized)")');
      expect(unknown.stderr).toContain('https://api.eu.opsgenie.com (set OPSGENIE_API_URL)');
      // A key not of Opsgenie's form is answered 422, not 401: refused all the same.
      const malformed = await runImport('opsgenie', standIn, folder.path('opsgenie-refused.yaml'), ['--json']);
      expect(malformed.code).toBe(3);
      expect(malformed.errorJson().error).toMatchObject({ code: 'authentication', exitCode: 3, status: 422 });
      expect(malformed.errorJson().error.message).toContain('Opsgenie refused the key in OPSGENIE_API_KEY (HTTP 422: "Key format is not valid!');
      expect(malformed.file).toBeUndefined();
    } finally {
      await standIn.close();
    }
  });
});

describe('docs/migrate.md', () => {
  it("shows the summary the import prints for the tests' Opsgenie organisation of 300 people", async () => {
    const page = readFileSync(new URL('../../docs/migrate.md', import.meta.url), 'utf8');
    const shown = /\$ OPSGENIE_API_KEY=\.\.\. pagerly directory import opsgenie --out people\.yaml\n([\s\S]*?)\n```/.exec(page)?.[1];
    expect(shown).toBeDefined();
    const standIn = await startStandIn(opsgenie(makeOrg(300, 'opsgenie'), SOURCE_KEYS.opsgenie));
    try {
      const out = folder.path('people.yaml');
      const r = await runImport('opsgenie', standIn, out);
      expect(r.code).toBe(0);
      const printed = r.stdout.replaceAll(standIn.url, 'https://api.opsgenie.com').replaceAll(out, 'people.yaml').split('\n');
      // Each line shown is printed, in the same order; "…" stands for lines left out of the page.
      let at = 0;
      for (const line of shown!.split('\n').filter((line) => line.trim() !== '…')) {
        const found = printed.indexOf(line, at);
        expect({ line, found: found >= 0 }).toEqual({ line, found: true });
        at = found + 1;
      }
    } finally {
      await standIn.close();
    }
  });
});

describe('a long import', () => {
  it('shows its progress on a terminal (people listed, then contact methods read), cleared when done', async () => {
    const standIn = await startStandIn(opsgenie(makeOrg(150, 'opsgenie'), SOURCE_KEYS.opsgenie));
    try {
      const out = folder.path('progress.yaml');
      const r = await run(['directory', 'import', 'opsgenie', '--out', out], { env: sourceEnv('opsgenie', standIn.url), tty: true });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('Reading Opsgenie [');
      expect(r.stderr).toContain('Reading contact methods [');
      expect(r.stdout).toContain('Read 150 people from Opsgenie');
    } finally {
      await standIn.close();
    }
  });

  it('Ctrl-C stops it at once: exit 130, nothing written', async () => {
    const controller = new AbortController();
    const vendor = opsgenie(makeOrg(150, 'opsgenie'), SOURCE_KEYS.opsgenie);
    // The first contacts request hangs, and Ctrl-C comes while it does.
    const standIn = await startStandIn(vendor, {
      faults: [
        fault(
          (seen) => seen.url.pathname.endsWith('/contacts'),
          Number.POSITIVE_INFINITY,
          () => controller.abort(),
        ),
      ],
    });
    try {
      const out = folder.path('interrupted.yaml');
      const stdout = new Capture();
      const stderr = new Capture();
      const code = await main(['directory', 'import', 'opsgenie', '--out', out], sourceEnv('opsgenie', standIn.url), {
        stdout,
        stderr,
        signal: controller.signal,
      });
      expect(code).toBe(130);
      expect(stderr.text).toContain('interrupted (Ctrl-C) while reading Opsgenie: nothing was written.');
      expect(existsSync(out)).toBe(false);
    } finally {
      await standIn.close();
    }
  });
});

describe('PagerDuty', () => {
  it('asks for the contact methods with the users, a total, 100 at a time', async () => {
    const standIn = await startStandIn(pagerduty(makeOrg(120, 'pagerduty'), SOURCE_KEYS.pagerduty));
    try {
      const r = await runImport('pagerduty', standIn, folder.path('pagerduty.yaml'));
      expect(r.code).toBe(0);
      expect(standIn.requests.map((seen) => seen.url.search)).toEqual([
        '?include%5B%5D=contact_methods&limit=100&offset=0&total=true',
        '?include%5B%5D=contact_methods&limit=100&offset=100&total=true',
      ]);
    } finally {
      await standIn.close();
    }
  });

  it.each([
    ['without more or total', (body: Record<string, unknown>) => ({ ...body, more: undefined, total: null })],
    ['with more absent on the last page only', (body: Record<string, unknown>) => (body['more'] === false ? { ...body, more: undefined } : body)],
    [
      'with numbers and booleans as text',
      (body: Record<string, unknown>) => ({ ...body, more: String(body['more']), total: String(body['total']), offset: String(body['offset']) }),
    ],
  ])('reads every page of a list %s', async (_how, edit) => {
    const org = makeOrg(230, 'pagerduty');
    const vendor = pagerduty(org, SOURCE_KEYS.pagerduty);
    const standIn = await startStandIn({
      ...vendor,
      route(seen, origin) {
        const answer = vendor.route(seen, origin);
        return seen.url.pathname === '/users' && answer.status === 200 ? { ...answer, body: edit(answer.body as Record<string, unknown>) } : answer;
      },
    });
    try {
      const out = folder.path('pagerduty-lenient.yaml');
      const r = await runImport('pagerduty', standIn, out, ['--json']);
      expect(r.code).toBe(0);
      expect(r.json().summary).toMatchObject({ listed: 230, written: expectedDirectory(org, 'pagerduty').size });
    } finally {
      await standIn.close();
    }
  });

  it('reads contact methods whose country code, enabled and blacklisted come as text', async () => {
    const org = makeOrg(60, 'pagerduty');
    const vendor = pagerduty(org, SOURCE_KEYS.pagerduty);
    const standIn = await startStandIn({
      ...vendor,
      route(seen, origin) {
        const answer = vendor.route(seen, origin);
        if (seen.url.pathname !== '/users') return answer;
        const body = answer.body as { users: { invitation_sent: unknown; contact_methods: Record<string, unknown>[] }[] };
        for (const user of body.users) {
          user.invitation_sent = String(user.invitation_sent);
          for (const method of user.contact_methods)
            if ('country_code' in method)
              Object.assign(method, { country_code: `+${method['country_code']}`, enabled: String(method['enabled']), blacklisted: 'false' });
        }
        return answer;
      },
    });
    try {
      const out = folder.path('pagerduty-text.yaml');
      const r = await runImport('pagerduty', standIn, out, ['--json']);
      expect(r.code).toBe(0);
      expect(r.json().summary).toMatchObject({ written: expectedDirectory(org, 'pagerduty').size, phonesUnreadable: 0 });
      expect(r.file).toContain('- email: person2@acme.example\n  name: Person 2 Müller-Łukasz\n  phone: "+14155550002"\n');
    } finally {
      await standIn.close();
    }
  });

  it('a WhatsApp number is taken after the voice and SMS ones; an address given as a number is read', async () => {
    const org: OrgPerson[] = [
      person({ id: 'P1', email: 'whatsapp-only@acme.example', name: 'Wanda App' }),
      person({ id: 'P2', email: 'both@acme.example', name: 'Bo Th', phones: [{ cc: '49', number: '15123456789', method: 'sms', enabled: true }] }),
    ];
    const vendor = pagerduty(org, SOURCE_KEYS.pagerduty);
    const whatsapp = (id: string, cc: number, address: unknown) => ({
      id: `${id}W`,
      type: 'whatsapp_contact_method',
      summary: 'WhatsApp',
      label: 'WhatsApp',
      country_code: cc,
      address,
      enabled: true,
      blacklisted: false,
    });
    const standIn = await startStandIn({
      ...vendor,
      route(seen, origin) {
        const answer = vendor.route(seen, origin);
        if (seen.url.pathname !== '/users') return answer;
        const body = answer.body as { users: { id: string; contact_methods: unknown[] }[] };
        for (const user of body.users) {
          // The WhatsApp number first in the list: it is still taken last.
          user.contact_methods = [user.id === 'P1' ? whatsapp('P1', 55, 11987654321) : whatsapp('P2', 34, '612345678'), ...user.contact_methods];
        }
        return answer;
      },
    });
    try {
      const r = await runImport('pagerduty', standIn, folder.path('pagerduty-whatsapp.yaml'), ['--json']);
      expect(r.code).toBe(0);
      expect(r.file).toContain('- email: whatsapp-only@acme.example\n  name: Wanda App\n  phone: "+5511987654321"\n');
      expect(r.json().severalNumbers).toEqual([
        { email: 'both@acme.example', phone: '+4915123456789', how: 'sms, enabled', notTaken: [{ phone: '+34612345678', how: 'whatsapp, enabled' }] },
      ]);
    } finally {
      await standIn.close();
    }
  });

  it('contact methods that came as references are read per user', async () => {
    const org = makeOrg(40, 'pagerduty');
    const standIn = await startStandIn(pagerduty(org, SOURCE_KEYS.pagerduty, { referencesOnly: true }));
    try {
      const out = folder.path('pagerduty-references.yaml');
      const r = await runImport('pagerduty', standIn, out, ['--json']);
      expect(r.code).toBe(0);
      const read = readSyncFile(out);
      expect(read.ok && read.rows.find((row) => row.values['email'] === 'person2@acme.example')?.values['phone']).toBe('+14155550002');
      expect(standIn.requests.filter((seen) => seen.url.pathname.endsWith('/contact_methods')).length).toBe(r.json().summary.written);
    } finally {
      await standIn.close();
    }
  });

  it("contact methods that came as references are read from Get a user where List a user's contact methods is not served", async () => {
    const org = makeOrg(40, 'pagerduty');
    const standIn = await startStandIn(pagerduty(org, SOURCE_KEYS.pagerduty, { referencesOnly: true, contactMethodsApi: false }));
    try {
      const out = folder.path('pagerduty-get-user.yaml');
      const r = await runImport('pagerduty', standIn, out, ['--json']);
      expect(r.code).toBe(0);
      expect(r.json().summary.skippedBy.gone).toBe(0);
      const read = readSyncFile(out);
      expect(read.ok && read.rows.find((row) => row.values['email'] === 'person2@acme.example')?.values['phone']).toBe('+14155550002');
      expect(standIn.requests.filter((seen) => seen.url.search === '?include%5B%5D=contact_methods' && /^\/users\/[^/]+$/.test(seen.url.pathname)).length).toBe(
        r.json().summary.written,
      );
    } finally {
      await standIn.close();
    }
  });

  it('more users than classic pagination reaches (10,000) stops the import, saying so; nothing written', async () => {
    const standIn = await startStandIn(pagerduty(makeOrg(10_050, 'pagerduty'), SOURCE_KEYS.pagerduty));
    try {
      const r = await runImport('pagerduty', standIn, folder.path('pagerduty-too-many.yaml'));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('PagerDuty lists at most 10000 users by its classic pagination');
      expect(r.file).toBeUndefined();
      // Every request stayed within what PagerDuty answers: offset + limit never past 10,000.
      for (const seen of standIn.requests)
        expect(Number(seen.url.searchParams.get('offset')) + Number(seen.url.searchParams.get('limit'))).toBeLessThanOrEqual(10_000);
    } finally {
      await standIn.close();
    }
  }, 30_000);
});

describe('Grafana OnCall', () => {
  it('writes no phone column (a sync keeps current numbers), the username as the name, and says so', async () => {
    const org = makeOrg(12, 'grafana-oncall');
    const standIn = await startStandIn(grafanaOnCall(org, SOURCE_KEYS['grafana-oncall']));
    try {
      const out = folder.path('oncall.csv');
      const r = await runImport('grafana-oncall', standIn, out);
      expect(r.code).toBe(0);
      expect(r.file!.split('\n')[0]).toBe('\uFEFFemail,name,role');
      expect(r.stdout).toContain('  phones   none: Grafana OnCall gives no phone numbers');
      expect(r.stdout).toContain("Grafana OnCall's users API gives no display names and no phone numbers");
      const read = readSyncFile(out);
      expect(read.ok && read.columns).toEqual(['email', 'name', 'role']);
    } finally {
      await standIn.close();
    }
  });

  it('a token the engine refuses (403 Invalid token.) exits 3 naming the variable; a token without the permission exits 4', async () => {
    const standIn = await startStandIn(grafanaOnCall(makeOrg(3, 'grafana-oncall'), SOURCE_KEYS['grafana-oncall']), {
      faults: [
        fault(
          (seen) => seen.headers.authorization === 'token-of-a-viewer',
          Number.POSITIVE_INFINITY,
          (response) => send(response, { status: 403, body: { detail: 'You do not have permission to perform this action.' } }),
        ),
      ],
    });
    try {
      const out = folder.path('oncall-refused.yaml');
      const refused = await runImport('grafana-oncall', standIn, out, ['--json'], { GRAFANA_ONCALL_API_TOKEN: 'wrong-token' });
      expect(refused.code).toBe(3);
      expect(refused.errorJson().error.message).toContain('Grafana OnCall refused the key in GRAFANA_ONCALL_API_TOKEN (HTTP 403: "Invalid token.")');
      const denied = await runImport('grafana-oncall', standIn, out, ['--json'], { GRAFANA_ONCALL_API_TOKEN: 'token-of-a-viewer' });
      expect(denied.code).toBe(4);
      expect(denied.errorJson().error.message).toContain('the key in GRAFANA_ONCALL_API_TOKEN may not read users');
      expect(existsSync(out)).toBe(false);
    } finally {
      await standIn.close();
    }
  });

  it.each(['/api/v1', '/api/v1/'])('GRAFANA_ONCALL_API_URL may end with the API path %s: it is not asked twice', async (suffix) => {
    const standIn = await startStandIn(grafanaOnCall(makeOrg(60, 'grafana-oncall'), SOURCE_KEYS['grafana-oncall']));
    try {
      const env = sourceEnv('grafana-oncall', standIn.url);
      const r = await runImport('grafana-oncall', standIn, folder.path('oncall-api-path.yaml'), [], {
        GRAFANA_ONCALL_API_URL: `${env['GRAFANA_ONCALL_API_URL']}${suffix}`,
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Read 60 people from Grafana OnCall');
      expect(standIn.requests.map((seen) => seen.url.pathname)).toEqual(['/oncall/api/v1/users/', '/oncall/api/v1/users/']);
    } finally {
      await standIn.close();
    }
  });

  it("waits what the engine's RateLimit-Reset header asks when a 429 comes without Retry-After", async () => {
    const org = makeOrg(60, 'grafana-oncall');
    const standIn = await startStandIn(grafanaOnCall(org, SOURCE_KEYS['grafana-oncall']), {
      faults: [
        fault(
          (seen) => seen.url.searchParams.get('page') === '2',
          1,
          (response) => send(response, oncallRateLimited(undefined, 2)),
        ),
      ],
    });
    try {
      const r = await runImport('grafana-oncall', standIn, folder.path('oncall-reset.yaml'));
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('Rate limited by Grafana OnCall; retrying in 2 s (attempt 2 of 7)…\n');
    } finally {
      await standIn.close();
    }
  });

  it('a user with no role in OnCall (none) is a user, by the table', async () => {
    const org = makeOrg(3, 'grafana-oncall').map((p, at) => (at === 1 ? { ...p, role: 'none' } : p));
    const standIn = await startStandIn(grafanaOnCall(org, SOURCE_KEYS['grafana-oncall']));
    try {
      const r = await runImport('grafana-oncall', standIn, folder.path('oncall-none.yaml'), ['--json']);
      expect(r.code).toBe(0);
      expect(r.json().roles).toContainEqual({ from: 'none', to: 'user', people: 1, known: true });
    } finally {
      await standIn.close();
    }
  });

  it('a wrong GRAFANA_ONCALL_API_URL path is named with the 404', async () => {
    const standIn = await startStandIn(grafanaOnCall(makeOrg(3, 'grafana-oncall'), SOURCE_KEYS['grafana-oncall']));
    try {
      const r = await run(['directory', 'import', 'grafana-oncall', '--out', folder.path('oncall-404.yaml')], {
        env: { ...sourceEnv('grafana-oncall', standIn.url), GRAFANA_ONCALL_API_URL: `${standIn.url}/wrong` },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Grafana OnCall answered "list users" with HTTP 404: "Not found." at /wrong/api/v1/users/: check GRAFANA_ONCALL_API_URL');
    } finally {
      await standIn.close();
    }
  });
});
