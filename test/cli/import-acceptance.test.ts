import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, type Sandbox } from '../../sandbox/index.ts';
import { cliSeed, KEYS } from './support.ts';

/**
 * The job as an outsider checks it, written apart from the import's code and from the stand-ins
 * in test/support/source-stand-ins/: a small stand-in of each vendor's users API made here from
 * the vendor's reference alone (docs/migrate.md lists the pages), with a few people of the kind
 * every organisation has (an owner, an admin, read-only and custom roles, a blocked one, an
 * invited one, accents and `#` in names, numbers of several countries), pages of three people
 * (the references let a server give fewer than asked), a 429 without a wait and one with
 * Retry-After. The real `pagerly` (bin/pagerly.js, a process of its own) imports, then syncs the
 * file into the sandbox; what arrives is compared with what each person is, by hand.
 */

const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));
const KEY = { opsgenie: '6c1f3a52-8d0e-4b7a-9f21-0e5d4c3b2a19', pagerduty: 'u+Zx8Qa1-pd-acceptance-key', oncall: 'oncall-acceptance-token-7Hq2' };
const SECRETS = [...Object.values(KEY), KEYS.admin];
const PAGE = 3;

interface Expected {
  readonly email: string;
  readonly name: string;
  readonly phone: string | null;
  readonly role: 'admin' | 'user';
}

let folder: string;
let sandbox: Sandbox;
let sandboxUrl: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-acceptance-'));
  sandbox = await createSandbox({ seed: cliSeed, rateLimit: false });
  sandboxUrl = await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

/** `pagerly ...argv` as a process of its own, with only these variables. */
function pagerly(argv: readonly string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...argv], { env: { PATH: process.env['PATH'] ?? '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** Nothing a person or a pipeline sees holds a key. */
function expectNoKey(...texts: string[]): void {
  for (const text of texts) for (const secret of SECRETS) expect(text).not.toContain(secret);
}

interface Seen {
  readonly host: string;
  readonly path: string;
  readonly authorization: string | undefined;
}

/** A loopback server answering `answer(url, request)`; every request noted. */
async function server(
  answer: (url: URL, request: http.IncomingMessage, origin: string) => { status: number; headers?: Record<string, string>; body: unknown },
) {
  const seen: Seen[] = [];
  let origin = '';
  const listener = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    seen.push({ host: request.headers.host ?? '', path: `${url.pathname}${url.search}`, authorization: request.headers.authorization });
    const { status, headers = {}, body } = answer(url, request, origin);
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
}

/** A 429 the first time each of these paths is asked: on the second page without a wait, on the third with Retry-After: 1. */
function throttle(second: string, third: string) {
  const done = new Set<string>();
  return (path: string, withoutWait: Record<string, string>, body: unknown) => {
    for (const [at, headers] of [
      [second, withoutWait],
      [third, { ...withoutWait, 'retry-after': '1' }],
    ] as const) {
      if (path === at && !done.has(at)) {
        done.add(at);
        return { status: 429, headers, body };
      }
    }
    return undefined;
  };
}

/** What the sandbox's directory holds for these e-mails after the sync. */
function arrived(emails: readonly string[]): Map<string, Expected> {
  const people = [...sandbox.world.people.values()].filter((person) => person.orgId === 'org_acme');
  return new Map(
    emails.flatMap((email) => {
      const person = people.find((p) => p.email.toLowerCase() === email.toLowerCase());
      return person ? [[email, { email: person.email, name: person.name, phone: person.phone, role: person.role as 'admin' | 'user' }]] : [];
    }),
  );
}

/** Import into a file, then sync it into the sandbox, both by the real command; the import's --json and both outputs checked for keys. */
async function importAndSync(source: string, env: Record<string, string>, file: string) {
  const imported = await pagerly(['directory', 'import', source, '--out', file, '--json'], { ...env, PAGERLY_API_KEY: KEYS.admin });
  expectNoKey(imported.stdout, imported.stderr);
  expect(imported.code).toBe(0);
  expectNoKey(readFileSync(file, 'utf8'));
  const synced = await pagerly(['--base-url', sandboxUrl, 'directory', 'sync', file, '--json'], { PAGERLY_API_KEY: KEYS.admin });
  expectNoKey(synced.stdout, synced.stderr);
  expect(synced.code).toBe(0);
  return { imported, summary: JSON.parse(imported.stdout), synced: JSON.parse(synced.stdout) };
}

describe('Opsgenie: the User API (List User, Get User with expand=contact), EU-style base', () => {
  // User API: username is the e-mail, fullName the name, role {id, name}; blocked; verified false until the invitation is accepted.
  const users = [
    { id: 'og-1', username: 'zoe.angstrom@acme.example', fullName: 'Zoë Ångström', role: 'Owner', contacts: [['voice', '46-701234567', true]] },
    { id: 'og-2', username: 'jf.dupont@acme.example', fullName: 'Jean-François Dupont #2', role: 'Admin', contacts: [['sms', '33-612345678', true]] },
    { id: 'og-3', username: 'ana.lima@acme.example', fullName: 'Ana # Lima', role: 'Stakeholder', contacts: [['voice', '55-11987654321', true]] },
    {
      id: 'og-4',
      username: 'taro.yamada@acme.example',
      fullName: '山田 太郎',
      role: 'User',
      contacts: [
        ['sms', '81-9012345678', false],
        ['voice', '81-312345678', true],
      ],
    },
    { id: 'og-5', username: 'soren@acme.example', fullName: 'Søren Kierkegaard', role: 'NOC Lead', contacts: [] },
    { id: 'og-6', username: 'unal@acme.example', fullName: 'Ünal Yılmaz', role: 'Observer', contacts: [['sms', '90-5321234567', true]] },
    { id: 'og-7', username: 'blocked@acme.example', fullName: 'Bea Blocked', role: 'Admin', blocked: true, contacts: [] },
    { id: 'og-8', username: 'invited@acme.example', fullName: 'Ivo Invited', role: 'User', verified: false, contacts: [] },
  ] as const;
  const expected: Expected[] = [
    { email: 'zoe.angstrom@acme.example', name: 'Zoë Ångström', phone: '+46701234567', role: 'admin' },
    { email: 'jf.dupont@acme.example', name: 'Jean-François Dupont #2', phone: '+33612345678', role: 'admin' },
    { email: 'ana.lima@acme.example', name: 'Ana # Lima', phone: '+5511987654321', role: 'user' },
    { email: 'taro.yamada@acme.example', name: '山田 太郎', phone: '+81312345678', role: 'user' },
    { email: 'soren@acme.example', name: 'Søren Kierkegaard', phone: null, role: 'user' },
    { email: 'unal@acme.example', name: 'Ünal Yılmaz', phone: '+905321234567', role: 'user' },
  ];
  const listed = (user: (typeof users)[number]) => ({
    id: user.id,
    username: user.username,
    fullName: user.fullName,
    role: { id: user.role, name: user.role },
    blocked: 'blocked' in user ? user.blocked : false,
    verified: 'verified' in user ? user.verified : true,
    timeZone: 'Europe/Istanbul',
    locale: 'en_US',
    createdAt: '2017-05-12T08:34:49.395Z',
  });

  function opsgenie(key: string, nextOrigin?: string) {
    const throttled = throttle('/v2/users?limit=3&offset=3', '/v2/users?limit=3&offset=6');
    return server((url, request, origin) => {
      if (request.headers.authorization !== `GenieKey ${key}`)
        return { status: 401, body: { message: 'Could not authenticate', took: 0.002, requestId: 'r0' } };
      if (url.pathname === '/v2/users') {
        // Pagination: at most 100, and a server may give fewer: this one gives three.
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), PAGE);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const self = `/v2/users?limit=${limit}&offset=${offset}`;
        const refused = throttled(self, { 'x-ratelimit-state': 'THROTTLED' }, { message: 'You are making too many requests!', took: 0, requestId: 'r1' });
        if (refused) return refused;
        const more = offset + limit < users.length;
        return {
          status: 200,
          body: {
            data: users.slice(offset, offset + limit).map(listed),
            totalCount: users.length,
            paging: {
              first: `${origin}/v2/users?limit=${limit}&offset=0&order=ASC&sort=username`,
              ...(more ? { next: `${nextOrigin ?? origin}/v2/users?limit=${limit}&offset=${offset + limit}&order=ASC&sort=username` } : {}),
            },
            took: 0.1,
            requestId: 'r2',
          },
        };
      }
      const match = /^\/v2\/users\/([^/]+)$/.exec(url.pathname);
      const user = match && users.find((u) => u.id === decodeURIComponent(match[1]!) || u.username === decodeURIComponent(match[1]!));
      if (!user) return { status: 404, body: { message: 'No user exists with identifier', took: 0, requestId: 'r3' } };
      const userContacts =
        url.searchParams.get('expand') === 'contact'
          ? {
              userContacts: [
                { to: user.username, id: `${user.id}-e`, contactMethod: 'email', disabledReason: '', enabled: true },
                ...user.contacts.map(([method, to, enabled], at) => ({
                  to,
                  id: `${user.id}-${at}`,
                  contactMethod: method,
                  disabledReason: enabled ? '' : 'Disabled by user',
                  enabled,
                })),
              ],
            }
          : {};
      return { status: 200, body: { data: { ...listed(user), ...userContacts }, expandable: ['contact'], took: 0.01, requestId: 'r4' } };
    });
  }

  it('every active person arrives with the exact e-mail, name, E.164 phone and role; every page read; the 429s waited out', async () => {
    const vendor = await opsgenie(KEY.opsgenie);
    try {
      const file = join(folder, 'opsgenie.yaml');
      const { summary } = await importAndSync('opsgenie', { OPSGENIE_API_KEY: KEY.opsgenie, OPSGENIE_API_URL: `${vendor.origin}/` }, file);
      expect(summary.summary).toMatchObject({ listed: 8, written: 6, pages: 3, skippedBy: { blocked: 1, invited: 1 } });
      expect(vendor.seen.filter((s) => s.path.startsWith('/v2/users?')).map((s) => s.path)).toEqual([
        '/v2/users?limit=100&offset=0',
        '/v2/users?limit=3&offset=3&order=ASC&sort=username',
        '/v2/users?limit=3&offset=3&order=ASC&sort=username',
        '/v2/users?limit=3&offset=6&order=ASC&sort=username',
        '/v2/users?limit=3&offset=6&order=ASC&sort=username',
      ]);
      for (const s of vendor.seen) expect(s.authorization).toBe(`GenieKey ${KEY.opsgenie}`);
      expect(arrived(expected.map((e) => e.email))).toEqual(new Map(expected.map((e) => [e.email, e])));
      expect(arrived(['blocked@acme.example', 'invited@acme.example']).size).toBe(0);
    } finally {
      await vendor.close();
    }
  }, 60_000);

  it('a next link to another host: that host gets nothing; the key shows in no output, --debug included', async () => {
    const elsewhere = await server(() => ({ status: 200, body: { data: [], took: 0, requestId: 'x' } }));
    const vendor = await opsgenie(KEY.opsgenie, elsewhere.origin);
    try {
      const file = join(folder, 'opsgenie-elsewhere.yaml');
      const r = await pagerly(['directory', 'import', 'opsgenie', '--out', file, '--debug'], {
        OPSGENIE_API_KEY: KEY.opsgenie,
        OPSGENIE_API_URL: vendor.origin,
      });
      expectNoKey(r.stdout, r.stderr);
      expect(elsewhere.seen).toEqual([]);
      expect(r.stderr).toContain('authorization: [redacted]');
      if (existsSync(file)) expectNoKey(readFileSync(file, 'utf8'));
    } finally {
      await Promise.all([vendor.close(), elsewhere.close()]);
    }
  }, 60_000);

  it('a wrong key exits non-zero naming OPSGENIE_API_KEY, writing nothing', async () => {
    const vendor = await opsgenie(KEY.opsgenie);
    try {
      const file = join(folder, 'opsgenie-wrong.yaml');
      const r = await pagerly(['directory', 'import', 'opsgenie', '--out', file], {
        OPSGENIE_API_KEY: '00000000-0000-4000-8000-000000000000',
        OPSGENIE_API_URL: vendor.origin,
      });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('OPSGENIE_API_KEY');
      expect(existsSync(file)).toBe(false);
    } finally {
      await vendor.close();
    }
  });
});

describe('PagerDuty: List users with include[]=contact_methods, classic pagination', () => {
  const phone = (type: string, cc: number, address: string, extra: object = {}) => ({
    type,
    label: 'Mobile',
    country_code: cc,
    address,
    enabled: true,
    blacklisted: false,
    ...extra,
  });
  const users = [
    { id: 'PD1', email: 'zoe.angstrom@pd.example', name: 'Zoë Ångström', role: 'owner', methods: [phone('phone_contact_method', 46, '701234567')] },
    { id: 'PD2', email: 'jf.dupont@pd.example', name: 'Jean-François Dupont #2', role: 'admin', methods: [phone('sms_contact_method', 33, '612345678')] },
    { id: 'PD3', email: 'ana.lima@pd.example', name: 'Ana # Lima', role: 'read_only_user', methods: [phone('phone_contact_method', 55, '11987654321')] },
    {
      id: 'PD4',
      email: 'taro.yamada@pd.example',
      name: '山田 太郎',
      role: 'observer',
      methods: [phone('sms_contact_method', 81, '9012345678', { enabled: false }), phone('phone_contact_method', 81, '312345678')],
    },
    { id: 'PD5', email: 'soren@pd.example', name: 'Søren Kierkegaard', role: 'restricted_access', methods: [] },
    {
      id: 'PD6',
      email: 'unal@pd.example',
      name: 'Ünal Yılmaz',
      role: 'limited_user',
      methods: [phone('phone_contact_method', 90, '5321234567', { blacklisted: true }), phone('sms_contact_method', 90, '5329876543')],
    },
    { id: 'PD7', email: 'invited@pd.example', name: 'Ivo Invited', role: 'admin', invitation_sent: true, methods: [] },
  ] as const;
  const expected: Expected[] = [
    { email: 'zoe.angstrom@pd.example', name: 'Zoë Ångström', phone: '+46701234567', role: 'admin' },
    { email: 'jf.dupont@pd.example', name: 'Jean-François Dupont #2', phone: '+33612345678', role: 'admin' },
    { email: 'ana.lima@pd.example', name: 'Ana # Lima', phone: '+5511987654321', role: 'user' },
    { email: 'taro.yamada@pd.example', name: '山田 太郎', phone: '+81312345678', role: 'user' },
    { email: 'soren@pd.example', name: 'Søren Kierkegaard', phone: null, role: 'user' },
    { email: 'unal@pd.example', name: 'Ünal Yılmaz', phone: '+905329876543', role: 'user' },
  ];

  function pagerduty(key: string) {
    const throttled = throttle('3', '6');
    return server((url, request, origin) => {
      if (request.headers.authorization !== `Token token=${key}`) return { status: 401, body: { error: { message: 'Authentication failed', code: 2006 } } };
      if (url.pathname !== '/users') return { status: 404, body: { error: { message: 'Not Found', code: 2100 } } };
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 25), PAGE);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      // Rate Limits: a 429 may come without the ratelimit headers; then with them.
      const refused = throttled(String(offset), {}, { error: { message: 'Rate Limit Exceeded', code: 2020 } });
      if (refused) return refused;
      const full = url.searchParams.getAll('include[]').includes('contact_methods');
      const page = users.slice(offset, offset + limit).map(({ methods, ...user }) => ({
        ...user,
        type: 'user',
        summary: user.name,
        self: `${origin}/users/${user.id}`,
        invitation_sent: 'invitation_sent' in user ? user.invitation_sent : false,
        contact_methods: full
          ? methods.map((m, at) => ({ id: `${user.id}C${at}`, summary: 'Mobile', self: `${origin}/users/${user.id}/contact_methods/${user.id}C${at}`, ...m }))
          : [],
      }));
      return {
        status: 200,
        headers: { 'ratelimit-limit': '960', 'ratelimit-remaining': '900', 'ratelimit-reset': '30' },
        body: { users: page, limit, offset, more: offset + limit < users.length, total: url.searchParams.get('total') === 'true' ? users.length : null },
      };
    });
  }

  it('every active person arrives with the exact e-mail, name, E.164 phone and role; every page read; the 429s waited out', async () => {
    const vendor = await pagerduty(KEY.pagerduty);
    try {
      const file = join(folder, 'pagerduty.csv');
      const { summary } = await importAndSync('pagerduty', { PAGERDUTY_API_TOKEN: KEY.pagerduty, PAGERDUTY_API_URL: vendor.origin }, file);
      expect(summary.summary).toMatchObject({ listed: 7, written: 6, pages: 3, skippedBy: { invited: 1 } });
      expect(vendor.seen.map((s) => new URL(s.path, vendor.origin).searchParams.get('offset'))).toEqual(['0', '3', '3', '6', '6']);
      for (const s of vendor.seen) expect(s.authorization).toBe(`Token token=${KEY.pagerduty}`);
      expect(arrived(expected.map((e) => e.email))).toEqual(new Map(expected.map((e) => [e.email, e])));
      expect(arrived(['invited@pd.example']).size).toBe(0);
    } finally {
      await vendor.close();
    }
  }, 60_000);

  it('a wrong key exits non-zero naming PAGERDUTY_API_TOKEN, writing nothing, showing no key', async () => {
    const vendor = await pagerduty(KEY.pagerduty);
    try {
      const file = join(folder, 'pagerduty-wrong.yaml');
      const r = await pagerly(['directory', 'import', 'pagerduty', '--out', file, '--debug'], {
        PAGERDUTY_API_TOKEN: 'not-the-token',
        PAGERDUTY_API_URL: vendor.origin,
      });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('PAGERDUTY_API_TOKEN');
      expect(r.stderr).not.toContain('not-the-token');
      expect(existsSync(file)).toBe(false);
    } finally {
      await vendor.close();
    }
  });
});

describe('Grafana OnCall: List Users, next as an absolute URL of the engine', () => {
  const users = [
    { id: 'UADMIN1', email: 'zoe.angstrom@oncall.example', username: 'zoë.ångström', role: 'admin' },
    { id: 'UEDIT02', email: 'jf.dupont@oncall.example', username: 'jf#2', role: 'editor' },
    { id: 'UVIEW03', email: 'ana.lima@oncall.example', username: 'ana.lima', role: 'viewer' },
    { id: 'UEDIT04', email: 'taro.yamada@oncall.example', username: '山田', role: 'editor' },
    { id: 'UNONE05', email: 'soren@oncall.example', username: 'søren', role: 'none' },
    { id: 'UADMIN6', email: 'unal@oncall.example', username: 'ünal', role: 'admin' },
    { id: 'UVIEW07', email: 'viewer@oncall.example', username: 'viewer', role: 'viewer' },
  ];
  // The users API gives no name (the username stands in) and no phone: the file has no phone column, and new people arrive without one.
  const expected: Expected[] = users.map((u) => ({ email: u.email, name: u.username, phone: null, role: u.role === 'admin' ? 'admin' : 'user' }));

  /** The engine under /oncall, writing next from its own BASE_URL (`engineBase`), as behind a proxy. */
  function oncall(key: string, engineBase?: string) {
    const throttled = throttle('2', '3');
    return server((url, request, origin) => {
      // An unknown token: 403 "Invalid token." (Django REST framework, no authenticate_header).
      if (request.headers.authorization !== key) return { status: 403, body: { detail: 'Invalid token.' } };
      if (url.pathname !== '/oncall/api/v1/users/') return { status: 404, body: { detail: 'Not found.' } };
      const page = Number(url.searchParams.get('page') ?? 1);
      const refused = throttled(String(page), {}, { detail: 'Request was throttled.' });
      if (refused) return refused;
      const pages = Math.ceil(users.length / PAGE);
      const link = (n: number) => `${engineBase ?? `${origin}/oncall`}/api/v1/users/?page=${n}`;
      return {
        status: 200,
        body: {
          count: users.length,
          next: page < pages ? link(page + 1) : null,
          previous: page > 1 ? link(page - 1) : null,
          results: users
            .slice((page - 1) * PAGE, page * PAGE)
            .map((u) => ({ ...u, grafana_id: 1, slack: null, timezone: 'UTC', teams: [], is_phone_number_verified: true })),
          current_page_number: page,
          page_size: PAGE,
          total_pages: pages,
        },
      };
    });
  }

  it('every person arrives with the exact e-mail, username for name and role, through an engine whose next names its internal host', async () => {
    // Self-hosted behind a proxy: the engine's BASE_URL is an address only the proxy reaches.
    const vendor = await oncall(KEY.oncall, 'http://oncall-engine.internal:8080');
    try {
      const file = join(folder, 'oncall.yaml');
      const { summary } = await importAndSync(
        'grafana-oncall',
        { GRAFANA_ONCALL_API_TOKEN: KEY.oncall, GRAFANA_ONCALL_API_URL: `${vendor.origin}/oncall/api/v1/` },
        file,
      );
      expect(summary.summary).toMatchObject({ listed: 7, written: 7, pages: 3 });
      expect(summary.notes.join('\n')).toContain('pointed to http://oncall-engine.internal:8080/api/v1/users/');
      expect(vendor.seen.map((s) => s.path)).toEqual([
        '/oncall/api/v1/users/',
        '/oncall/api/v1/users/?page=2',
        '/oncall/api/v1/users/?page=2',
        '/oncall/api/v1/users/?page=3',
        '/oncall/api/v1/users/?page=3',
      ]);
      for (const s of vendor.seen) expect(s.authorization).toBe(KEY.oncall);
      expect(readFileSync(file, 'utf8')).not.toContain('phone');
      expect(arrived(expected.map((e) => e.email))).toEqual(new Map(expected.map((e) => [e.email, e])));
    } finally {
      await vendor.close();
    }
  }, 60_000);

  it('a wrong token (403 Invalid token.) exits non-zero naming GRAFANA_ONCALL_API_TOKEN, writing nothing', async () => {
    const vendor = await oncall(KEY.oncall);
    try {
      const file = join(folder, 'oncall-wrong.yaml');
      const r = await pagerly(['directory', 'import', 'grafana-oncall', '--out', file], {
        GRAFANA_ONCALL_API_TOKEN: 'wrong',
        GRAFANA_ONCALL_API_URL: `${vendor.origin}/oncall`,
      });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('GRAFANA_ONCALL_API_TOKEN');
      expect(existsSync(file)).toBe(false);
    } finally {
      await vendor.close();
    }
  });
});
