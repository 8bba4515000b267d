import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { InvalidResponseError } from '../../shared/errors.ts';
import { choosePhone, e164Of } from '../../shared/directory-import/phones.ts';
import { SourceHttp } from '../../shared/directory-import/source-http.ts';
import { mappedRole, ROLE_TABLE, roleTableMarkdown } from '../../shared/directory-import/roles.ts';
import { selectPeople } from '../../shared/directory-import/select-people.ts';
import type { SourcePerson } from '../../shared/directory-import/source-person.ts';
import { SOURCE_IDS, SOURCES } from '../../shared/directory-import/sources.ts';

describe('the role table', () => {
  it('owners and admins are admins; every other role, and any role it does not list, is a user', () => {
    for (const source of SOURCE_IDS) {
      for (const [from, to] of Object.entries(ROLE_TABLE[source])) expect([from, to]).toEqual([from, ['owner', 'admin'].includes(from) ? 'admin' : 'user']);
      for (const other of ['Stakeholder', 'observer', 'read_only_user', 'restricted_access', 'viewer', 'Custom Admin-ish', '', undefined]) {
        if (other !== undefined && Object.hasOwn(ROLE_TABLE[source], other.toLowerCase())) continue;
        expect(mappedRole(source, other)).toEqual({ role: 'user', known: false });
      }
    }
    // Letter case as Opsgenie writes role names; a role named like a prototype property is no role.
    expect(mappedRole('opsgenie', 'Owner')).toEqual({ role: 'admin', known: true });
    expect(mappedRole('pagerduty', 'constructor')).toEqual({ role: 'user', known: false });
  });

  it('docs/migrate.md shows the table as the code has it', () => {
    const page = readFileSync(new URL('../../docs/migrate.md', import.meta.url), 'utf8');
    expect(page).toContain(roleTableMarkdown());
  });

  it('docs/migrate.md names every reference page the import relies on', () => {
    const page = readFileSync(new URL('../../docs/migrate.md', import.meta.url), 'utf8');
    for (const source of SOURCE_IDS) for (const reference of SOURCES[source].references) expect(page).toContain(reference.url);
  });
});

describe('phone numbers', () => {
  it('reads E.164 with separators; refuses a number without its country code', () => {
    expect(e164Of('+1 4155550123')).toBe('+14155550123');
    expect(e164Of('+90 5001112233')).toBe('+905001112233');
    expect(e164Of('+44 20 7946 0000')).toBe('+442079460000');
    expect(e164Of(' +1 (415) 555-0123 ')).toBe('+14155550123');
    for (const bad of ['4155550123', '1-4155550123', '555-0100', '0044 20 7946 0000', '+0123456789', '+1', 'call me', '', '+1415555012345678'])
      expect(e164Of(bad)).toBeUndefined();
  });

  it('takes a usable number before a disabled one, then the source order; the same number twice is one', () => {
    const phone = (raw: string, usable: boolean, method = 'sms') => ({ raw, method, usable, why: usable ? undefined : 'disabled' });
    const choice = choosePhone([
      phone('+1 4155550100', false),
      phone('+33612345678', true),
      phone('+1 4155550199', true, 'voice'),
      phone('+33 6 12 34 56 78', false, 'voice'),
      phone('555-0100', true),
    ]);
    expect(choice.phone).toBe('+33612345678');
    expect(choice.others.map((other) => other.phone)).toEqual(['+14155550199', '+14155550100']);
    expect(choice.unreadable.map((other) => other.raw)).toEqual(['555-0100']);
    expect(choosePhone([phone('+1 4155550100', false)]).phone).toBe('+14155550100');
    expect(choosePhone([]).phone).toBeUndefined();
  });
});

describe('who is written', () => {
  const base = { role: 'user', state: 'active' as const, phones: [] };
  const people: SourcePerson[] = [
    { ...base, id: '1', email: 'a@acme.example', name: 'Ann' },
    { ...base, id: '2', email: 'b@acme.example', name: 'Bea', state: 'blocked' },
    { ...base, id: '3', email: 'c@acme.example', name: 'Cy', state: 'invited' },
    { ...base, id: '4', email: 'A@ACME.example', name: 'Ann again' },
    { ...base, id: '5', email: 'd@acme.example', name: 'bell\u0007' },
    { ...base, id: '6', email: 'e@acme.example', name: 'lost \uFFFD' },
    { ...base, id: '7', email: 'f@acme.example', name: 'half \uD83D' },
    { ...base, id: '8', email: 'g@acme.example', name: 42 },
    { ...base, id: '9', email: undefined, name: 'No Mail' },
    { ...base, id: 'page 1, entry 10', email: undefined, name: undefined, unreadable: 'the entry is not a user object' },
  ];

  it('leaves out, with a reason each, everyone the sync would refuse or the rule excludes; nobody silently', () => {
    const selection = selectPeople(SOURCES.pagerduty, people, { includeInvited: false, secrets: [] });
    expect(selection.rows).toEqual([{ email: 'a@acme.example', name: 'Ann', phone: null, role: 'user' }]);
    expect(selection.skipped.map(({ id, reason, why }) => [id, reason, why])).toEqual([
      ['2', 'blocked', 'blocked in PagerDuty'],
      ['3', 'invited', 'has not accepted their PagerDuty invitation yet'],
      ['4', 'duplicate', 'the same e-mail as 1, which is kept'],
      ['5', 'unusable', 'name holds the control character U+0007 at character 5'],
      ['6', 'unusable', 'name holds U+FFFD, the mark of a character that was lost before it reached the import'],
      ['7', 'unusable', 'name holds a broken character (an unpaired surrogate)'],
      ['8', 'unusable', 'name must be a string, not a number'],
      ['9', 'unusable', 'email is required'],
      ['page 1, entry 10', 'unusable', 'the entry is not a user object (page 1, entry 10)'],
    ]);
    expect(selection.rows.length + selection.skipped.length).toBe(people.length);
  });

  it("leaves out a person whose e-mail or name holds the source's key, in any form redact finds: the key is written to no file", () => {
    const key = 'pd-source-key-9c81f02b7e';
    const echoing = [
      { ...base, id: '1', email: 'a@acme.example', name: `Ann ${key}` },
      { ...base, id: '2', email: `${key.slice(0, 10)}@acme.example`, name: 'Bo' },
      { ...base, id: '3', email: 'c@acme.example', name: Buffer.from(key).toString('base64') },
      { ...base, id: '4', email: 'd@acme.example', name: 'Dee' },
    ];
    const selection = selectPeople(SOURCES.pagerduty, echoing, { includeInvited: false, secrets: [key] });
    expect(selection.rows.map((row) => row.email)).toEqual(['d@acme.example']);
    expect(selection.skipped.map(({ id, reason, why }) => [id, reason, why])).toEqual([
      ['1', 'unusable', 'its name holds the key in PAGERDUTY_API_TOKEN, which is written nowhere'],
      ['2', 'unusable', 'its email holds the key in PAGERDUTY_API_TOKEN, which is written nowhere'],
      ['3', 'unusable', 'its name holds the key in PAGERDUTY_API_TOKEN, which is written nowhere'],
    ]);
  });

  it('a source without phones writes none: the phone stays undefined, not cleared', () => {
    const selection = selectPeople(SOURCES['grafana-oncall'], [{ ...base, id: '1', email: 'a@acme.example', name: 'ann', phones: undefined }], {
      includeInvited: false,
      secrets: [],
    });
    expect(selection.rows).toEqual([{ email: 'a@acme.example', name: 'ann', phone: undefined, role: 'user' }]);
    expect(selection.phones).toEqual({ found: 0, missing: 0, unreadable: 0 });
  });
});

describe('a link the source gives', () => {
  const http = () =>
    new SourceHttp({
      source: SOURCES.opsgenie,
      base: 'https://api.opsgenie.example/eu',
      key: 'links-test-key-4f1a',
      userAgent: 'test',
      sender: { send: () => Promise.reject(new Error('no request is made here')) },
    });
  const list = new URL('https://api.opsgenie.example/eu/v2/users');

  it('on the base, at the list: its query is asked there, saying nothing', () => {
    const links = http();
    expect(links.nextPage('https://api.opsgenie.example/eu/v2/users?offset=100&limit=100', 'paging.next', list).href).toBe(
      'https://api.opsgenie.example/eu/v2/users?offset=100&limit=100',
    );
    expect(links.nextPage('/eu/v2/users/?offset=200', 'paging.next', list).href).toBe('https://api.opsgenie.example/eu/v2/users?offset=200');
    expect(links.nextPage('?offset=300', 'paging.next', list).href).toBe('https://api.opsgenie.example/eu/v2/users?offset=300');
    expect(links.notes).toEqual([]);
  });

  it('anywhere else: only its query is taken, asked of the base, and the summary says so once', () => {
    const links = http();
    for (const elsewhere of [
      'http://api.opsgenie.example/eu/v2/users?offset=100',
      'https://api.opsgenie.example:8443/eu/v2/users?offset=100',
      'https://evil.example/steal?offset=100',
      '//evil.example/x?offset=100',
      'http://engine:8080/v2/users?offset=100',
    ]) {
      expect(links.nextPage(elsewhere, 'paging.next', list).href).toBe('https://api.opsgenie.example/eu/v2/users?offset=100');
    }
    expect(links.notes).toEqual([
      "Opsgenie's paging.next pointed to http://api.opsgenie.example/eu/v2/users, not to https://api.opsgenie.example/eu/v2/users: each next page was asked of https://api.opsgenie.example/eu/v2/users with the link's query instead, so the key in OPSGENIE_API_KEY went nowhere else.",
    ]);
  });

  it('is refused when it is no link, or carries credentials', () => {
    for (const bad of [42, '', 'https://user:pass@api.opsgenie.example/v2/users', 'http://[::1']) {
      expect(() => http().nextPage(bad, 'paging.next', list)).toThrow(InvalidResponseError);
    }
  });
});
