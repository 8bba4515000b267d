import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConsoleAssets } from '../../sandbox/console/build-assets.ts';
import { secretForms } from '../../shared/redact.ts';
import type { FastifyRequest } from 'fastify';
import { MAX_STREAMS } from '../../sandbox/console/plugin.ts';
import { FEED_TEXT_MAX } from '../../sandbox/console/rows.ts';
import { createSandbox, demoKeys, demoSeed, parseSeed, scaleSeed, type ValidSeed } from '../../sandbox/index.ts';
import { refusal } from '../../sandbox/console/loopback.ts';
import { keyScrubber } from '../../sandbox/console/scrub.ts';
import { HOUR, startReceiver, startSandbox } from './support.ts';

const KEY_FORMS = Object.values(demoKeys).flatMap(secretForms);
const holdsAKey = (text: string) => KEY_FORMS.filter((form) => text.includes(form));

/**
 * Reads a server-sent event stream until `enough` is true of what came, then drops the
 * connection (node:http, no pool: nothing of it outlives the read).
 */
function readEvents(url: string, enough: (text: string) => boolean, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const request = httpRequest(url, { headers, agent: false }, (response) => {
      expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        if (enough(text)) finish();
      });
      response.on('end', finish);
    });
    const timer = setTimeout(finish, 5_000);
    function finish() {
      clearTimeout(timer);
      request.destroy();
      resolve(text);
    }
    request.on('error', (error) => (text ? resolve(text) : reject(error)));
    request.end();
  });
}

/** The events of a stream, by name, with their parsed data. */
function eventsOf(text: string): { id: string; name: string; data: any }[] {
  return text
    .split('\n\n')
    .map(
      (block) =>
        Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)])) as Record<string, string>,
    )
    .filter((fields) => fields.event !== undefined)
    .map((fields) => ({ id: fields.id ?? '', name: fields.event ?? '', data: JSON.parse(fields.data ?? 'null') }));
}

/** A raw request, so the Host and Origin headers are sent as given (fetch will not send another Host). */
function rawGet(url: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the sandbox console', () => {
  it('serves the page with a CSP that allows no inline script or eval, and nosniff', async () => {
    const s = await startSandbox();
    try {
      const page = await s.call('/');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      // No inline script or style, no handler attribute, and the model notice names the assumptions.
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\son[a-z]+=/i);
      expect(page.text).toContain('docs/assumptions.md');
      for (const path of ['/console/app.js', '/console/feed-worker.js']) {
        const script = await s.call(path);
        expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
        expect(script.headers.get('content-security-policy')).toBe(csp);
        expect(script.text).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/);
      }
    } finally {
      await s.sandbox.close();
    }
  });

  it('answers the console and the keyless controls on loopback only, and never to a rebound host name', async () => {
    const s = await startSandbox();
    try {
      // Percent-encoded, a path reaches the same route: the rule holds for the route, not the text.
      // (The Host rule covers every route of the sandbox: test/sandbox/host-check.test.ts.)
      for (const path of [
        '/',
        '/console/app.js',
        '/console/feed-worker.js',
        '/_sandbox/console/teams',
        '/_sandbox/console/snapshot',
        '/_sandbox/clock',
        '/_sandbox/faults',
        '/%5Fsandbox/clock',
        '/%5fsandbox/console/events',
      ]) {
        const rebound = await rawGet(s.url + path, { host: 'attacker.example:4010' });
        expect({ path, status: rebound.status }).toEqual({ path, status: 403 });
        expect(rebound.body).toContain('--allowed-hosts attacker.example');
      }
      // From another machine (a real socket from elsewhere is not to be had here: the request as Fastify gives it).
      const fromElsewhere = (host: string) => ({ method: 'GET', headers: { host }, socket: { remoteAddress: '192.0.2.7' } }) as unknown as FastifyRequest;
      expect(refusal(fromElsewhere('127.0.0.1:4010'), false)).toContain('only requests from this machine');
      expect(refusal(fromElsewhere('sandbox.example'), true)).toBeUndefined();
      // A page of another origin cannot move the clock through the browser (no key proves who asks).
      const forged = await rawGet(`${s.url}/_sandbox/clock`, { origin: 'http://attacker.example', 'content-type': 'application/json' }, 'POST');
      expect(forged.status).toBe(403);
    } finally {
      await s.sandbox.close();
    }

    const open = await startSandbox({ console: { allowRemote: true } });
    try {
      expect((await rawGet(`${open.url}/_sandbox/clock`, { host: 'sandbox.example' })).status).toBe(200);
    } finally {
      await open.sandbox.close();
    }
  });

  it('shows no key a caller put in a text it stores (a title, a name) or in a fault, in the stream, the snapshot or the pages', async () => {
    const s = await startSandbox();
    try {
      const stream = readEvents(`${s.url}/_sandbox/console/events`, (text) => text.includes('"faults"'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const title = `Deploy failed with PAGERLY_API_KEY=${demoKeys.acmeAdmin}`;
      expect((await s.call('/o/incident', { key: demoKeys.acmeAdmin, method: 'POST', body: { title, teamname: 'Platform' } })).status).toBe(201);
      const made = await s.call('/o/oncalluser', {
        key: demoKeys.acmeAdmin,
        method: 'POST',
        body: { email: 'bot@acme.example', name: `Bot ${encodeURIComponent(demoKeys.acmeOwner)}` },
      });
      expect(made.status).toBe(201);
      const fault = { path: `/o/incident/${demoKeys.acmeUser}`, status: 500, body: JSON.stringify([{ Error: `bad key ${demoKeys.globexAdmin}` }]) };
      expect((await s.call('/_sandbox/faults', { method: 'POST', body: fault })).status).toBe(201);
      const answers = [await stream, (await s.call('/_sandbox/console/snapshot')).text, (await s.call('/_sandbox/console/people?q=bot')).text];
      for (const text of answers) expect(holdsAKey(text)).toEqual([]);
      expect(answers[1]).toContain('Deploy failed with PAGERLY_API_KEY=[redacted]');
      expect(answers[2]).toContain('Bot [redacted]');
    } finally {
      await s.sandbox.close();
    }
  });

  it('sends a snapshot, then each change live, naming the key’s person and never the key', async () => {
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 410));
    const s = await startSandbox();
    try {
      // A key sent where it does not belong (a query string, a hook URL, a path) is still never shown.
      await s.call(`/o/zapier/subscribe`, {
        key: demoKeys.acmeAdmin,
        method: 'POST',
        body: { url: `${receiver.url}?token=${demoKeys.acmeUser}`, teamname: 'Platform' },
      });
      const stream = readEvents(`${s.url}/_sandbox/console/events`, (text) => text.includes('"removed-410"'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await s.call('/o/incident', { key: demoKeys.acmeAdmin, method: 'POST', body: { title: 'Checkout down' } });
      await s.call(`/pagerly/o/currentusers?teamname=Platform&apikey=${encodeURIComponent(demoKeys.acmeOwner)}`, { key: demoKeys.acmeUser });
      await s.call(`/o/incident/${demoKeys.globexAdmin}`, { key: demoKeys.acmeAdmin });
      await s.call('/_sandbox/clock', { method: 'POST', body: { advanceMs: HOUR } });
      const text = await stream;
      expect(holdsAKey(text)).toEqual([]);

      const events = eventsOf(text);
      expect(events[0]?.name).toBe('snapshot');
      expect(events[0]?.data.subscriptions).toEqual([
        expect.objectContaining({ id: 'sub_0001', url: `${receiver.url}?token=[redacted]`, team: 'Platform', state: 'active' }),
      ]);
      // Ids are the feed's epoch, then a count: `3f9a0c1e.12`.
      const seqOf = (id: string) => Number(id.split('.')[1]);
      const ids = events.map((event) => seqOf(event.id));
      expect(ids.slice(1)).toEqual(ids.slice(1).map((_, i) => ids[1]! + i));
      expect(events.find((event) => event.name === 'incident')?.data).toMatchObject({
        id: 'inc_0001',
        title: 'Checkout down',
        change: 'opened',
        by: 'Grace Hopper',
      });
      const paths = events.filter((event) => event.name === 'request').map((event) => `${event.data.status} ${event.data.path} ${event.data.who}`);
      expect(paths).toEqual([
        '201 /o/incident Grace Hopper (Acme)',
        '200 /pagerly/o/currentusers?teamname=Platform&apikey=[redacted] Alan Turing (Acme)',
        // No route there, so no key was checked and nobody is named.
        '404 /o/incident/[redacted] null',
        '200 /_sandbox/clock null',
      ]);
      expect(events.find((event) => event.name === 'oncall' && event.data.team.name === 'Platform')?.data).toMatchObject({
        previous: [{ name: 'Alan Turing' }],
        current: [{ name: 'Edsger Dijkstra' }],
        hooks: 1,
      });
      const attempts = events.filter((event) => event.name === 'delivery').map((event) => `${event.data.attempt} ${event.data.status} ${event.data.next}`);
      expect(attempts).toEqual(['1 500 retry', '2 410 removed']);
      expect(events.filter((event) => event.name === 'delivery')[0]?.data.nextAttemptAt).toEqual(expect.any(String));
      expect(events.at(-1)).toMatchObject({ name: 'subscription', data: { id: 'sub_0001', state: 'removed-410' } });

      // A reconnect with Last-Event-ID gets exactly what came after it, not a snapshot.
      const incidentId = events.find((event) => event.name === 'incident')!.id;
      const resumed = eventsOf(await readEvents(`${s.url}/_sandbox/console/events`, (t) => t.includes('removed-410'), { 'last-event-id': incidentId }));
      expect(resumed.map((event) => event.id)).toEqual(events.filter((event) => seqOf(event.id) > seqOf(incidentId)).map((event) => event.id));
      // An id of another sandbox (a restart on the same port), or none it knows, gets a snapshot instead.
      for (const other of ['nonsense', `00000000.${seqOf(incidentId)}`]) {
        const fresh = eventsOf(await readEvents(`${s.url}/_sandbox/console/events`, (t) => t.includes('snapshot'), { 'last-event-id': other }));
        expect(fresh[0]?.name).toBe('snapshot');
      }
    } finally {
      await s.sandbox.close();
      await receiver.close();
    }
  });

  it('reports only writes that happened, marks what an injected fault answered, and sends the faults waiting', async () => {
    const s = await startSandbox();
    try {
      await s.call('/_sandbox/faults', { method: 'POST', body: { path: '/o/incident', status: 201, body: '{"id":"inc_fake","title":"not real"}' } });
      const stream = readEvents(`${s.url}/_sandbox/console/events`, (text) => text.includes('/o/oncalluser'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await s.call('/o/incident', { key: demoKeys.acmeAdmin, method: 'POST', body: { title: 'never stored' } });
      await s.call('/o/oncalluser?email=hedy%40acme.example', { key: demoKeys.acmeAdmin, method: 'DELETE' });
      const events = eventsOf(await stream);
      expect(events.filter((event) => event.name === 'incident')).toEqual([]);
      expect(events.find((event) => event.name === 'person')?.data).toMatchObject({ name: 'Hedy Lamarr', removed: true });
      // The snapshot lists the fault waiting; its use empties the list; the journal tells its answer from the model's.
      expect(events[0]?.data.faults).toEqual([{ method: null, path: '/o/incident', status: 201, remaining: 1 }]);
      expect(events.filter((event) => event.name === 'faults').map((event) => event.data)).toEqual([[]]);
      const journal = events.filter((event) => event.name === 'request').map((event) => `${event.data.method} ${event.data.status} ${event.data.injected}`);
      expect(journal).toEqual(['POST 201 true', 'DELETE 200 false']);
    } finally {
      await s.sandbox.close();
    }
  });

  it('refuses a stream past its limit with 503, the reason and Retry-After, and serves one again once a stream ends', async () => {
    const s = await startSandbox();
    const held: ReturnType<typeof httpRequest>[] = [];
    try {
      for (let n = 0; n < MAX_STREAMS; n += 1)
        await new Promise<void>((resolve) => {
          const request = httpRequest(`${s.url}/_sandbox/console/events`, { agent: false }, (response) => {
            response.resume();
            resolve();
          });
          request.on('error', () => undefined);
          request.end();
          held.push(request);
        });
      const refused = await s.call('/_sandbox/console/events');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
      expect(refused.json).toEqual([
        {
          Error: `The sandbox serves ${MAX_STREAMS} console event streams at once, and ${MAX_STREAMS} are open: other browsers, or programs reading /_sandbox/console/events, hold them`,
        },
      ]);
      // Meanwhile the state of things can still be read, as of an event a stream can resume after.
      const page = await s.call('/_sandbox/console/snapshot');
      expect(page.json).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{8}\.\d+$/), snapshot: { totals: { teams: 4 } } });
      held.pop()!.destroy();
      let served = '';
      for (let tries = 0; tries < 50 && !served.includes('event: snapshot'); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        served = await readEvents(`${s.url}/_sandbox/console/events`, (text) => text.includes('event: snapshot')).catch(() => '');
      }
      expect(served).toContain('event: snapshot');
    } finally {
      for (const request of held) request.destroy();
      await s.sandbox.close();
    }
  });

  it('resumes a stream right after a snapshot read on its own (GET /_sandbox/console/snapshot)', async () => {
    const s = await startSandbox();
    try {
      await s.call('/o/incident', { key: demoKeys.acmeAdmin, method: 'POST', body: { title: 'In the snapshot' } });
      const page = (await s.call('/_sandbox/console/snapshot')).json;
      expect(page.snapshot.incidents.map((incident: { title: string }) => incident.title)).toEqual(['In the snapshot']);
      await s.call('/o/incident', { key: demoKeys.acmeAdmin, method: 'POST', body: { title: 'After the snapshot' } });
      const resumed = eventsOf(
        await readEvents(`${s.url}/_sandbox/console/events`, (text) => text.includes('"After the snapshot"'), { 'last-event-id': page.id }),
      );
      // What came after it, and nothing it held: no snapshot again, no first incident again.
      expect(resumed.filter((event) => event.name === 'incident').map((event) => event.data.title)).toEqual(['After the snapshot']);
      expect(resumed.map((event) => event.name)).not.toContain('snapshot');
    } finally {
      await s.sandbox.close();
    }
  });

  it('carries no text longer than FEED_TEXT_MAX: a name of 100 KB in the seed goes out as its first 1,024 characters', async () => {
    const huge = (prefix: string) => `${prefix} ${'x'.repeat(100 * 1024)}`;
    const seed = structuredClone(demoSeed) as {
      organizations: { name: string; teams: { id: string; name: string }[]; people: { id: string; name: string }[] }[];
    };
    const acme = seed.organizations[0]!;
    acme.name = huge('Acme');
    acme.teams.find((team) => team.id === 'team_platform')!.name = huge('Platform');
    for (const person of acme.people) person.name = huge(person.name);
    const s = await startSandbox({ seed: seed as unknown as ValidSeed });
    try {
      const stream = readEvents(`${s.url}/_sandbox/console/events`, (text) => text.includes('event: oncall'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await s.call('/o/incident', { key: demoKeys.acmeAdmin, method: 'POST', body: { title: 'Checkout down' } });
      await s.call('/_sandbox/clock', { method: 'POST', body: { advanceMs: HOUR } });
      const text = await stream;
      const events = eventsOf(text);
      const answers = [
        ...events.map((event) => event.data),
        (await s.call('/_sandbox/console/teams?limit=25')).json,
        (await s.call('/_sandbox/console/people?limit=25')).json,
      ];
      // Every text at most FEED_TEXT_MAX and `…`; the journal's `who` names a person and an organization, each so bounded.
      const lengths = (value: unknown, key = ''): [string, number][] =>
        typeof value === 'string'
          ? [[key, value.length]]
          : typeof value === 'object' && value !== null
            ? Object.entries(value).flatMap(([name, inner]) => lengths(inner, Array.isArray(value) ? key : name))
            : [];
      const all = answers.flatMap((answer) => lengths(answer));
      expect(Math.max(...all.filter(([key]) => key !== 'who').map(([, length]) => length))).toBe(FEED_TEXT_MAX + 1);
      expect(Math.max(...all.filter(([key]) => key === 'who').map(([, length]) => length))).toBe(2 * (FEED_TEXT_MAX + 1) + 3);
      expect(events.find((event) => event.name === 'incident')?.data.by).toBe(`${huge('Grace Hopper').slice(0, FEED_TEXT_MAX)}…`);
      expect(events.find((event) => event.name === 'oncall')?.data.team.name).toBe(`${huge('Platform').slice(0, FEED_TEXT_MAX)}…`);
    } finally {
      await s.sandbox.close();
    }
  });

  it('ends open streams when the sandbox closes, so a page left open never holds a shutdown', async () => {
    const s = await startSandbox();
    const answer = await fetch(`${s.url}/_sandbox/console/events`);
    const reader = answer.body!.getReader();
    await reader.read();
    const began = performance.now();
    await s.sandbox.close();
    expect(performance.now() - began).toBeLessThan(2_000);
    // The stream ended cleanly, from the server's side.
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });

  it('reads 20,000 teams a page at a time, with who is on call in each', async () => {
    const s = await startSandbox({ seed: parseSeed(scaleSeed({ teams: 20_000 }), 'scale') });
    try {
      const page = await s.call('/_sandbox/console/teams?offset=19990&limit=25&q=team');
      expect(page.json).toMatchObject({ total: 20_000, offset: 19_990 });
      expect(page.json.items).toHaveLength(10);
      expect(page.json.items[0]).toEqual({
        id: 'team_19990',
        org: 'Scale',
        name: 'Team 19990',
        onCall: [
          { id: 'usr_19990', name: 'Person 19990' },
          { id: 'usr_19991', name: 'Person 19991' },
        ],
      });
      const people = await s.call('/_sandbox/console/people?limit=1000&q=person%201999');
      expect(people.json.items).toHaveLength(11);
      // A snapshot holds bounded lists, never the 20,000 teams or people.
      const snapshot = eventsOf(await readEvents(`${s.url}/_sandbox/console/events`, (text) => text.includes('event: snapshot')));
      expect(JSON.stringify(snapshot[0]?.data).length).toBeLessThan(2_000);
      expect((await s.call('/_sandbox/console/teams?limit=nonsense')).json.items).toHaveLength(25);
    } finally {
      await s.sandbox.close();
    }
    // Building a world of 20,000 teams takes seconds on a busy machine.
  }, 60_000);

  it('serves prebuilt assets from a folder (as a package ships them), and names a missing file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'console-assets-'));
    try {
      await buildConsoleAssets(folder);
      const s = await startSandbox({ console: { assetsDir: folder } });
      try {
        expect((await s.call('/console/app.js')).text).toBe(await readFile(join(folder, 'app.js'), 'utf8'));
        expect((await s.call('/console/feed-worker.js')).text).toBe(await readFile(join(folder, 'feed-worker.js'), 'utf8'));
        expect((await s.call('/')).text).toBe(await readFile(join(folder, 'index.html'), 'utf8'));
      } finally {
        await s.sandbox.close();
      }
      await rm(join(folder, 'console.css'));
      await expect(createSandbox({ console: { assetsDir: folder } })).rejects.toThrow(/console\.css could not be read from/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('scrubs a key from a path or URL in any form, a real key sent by mistake and a key the ring knows included', () => {
    const seedKey = demoKeys.acmeAdmin;
    const laterKey = 'added-after-the-seed-0042';
    const scrub = keyScrubber([seedKey], (text) => text === laterKey);
    const realKey = 'pk_live_0123456789abcdef';
    const cases = [
      `/o/incident?k=${encodeURIComponent(seedKey)}`,
      `/o/incident?k=${Buffer.from(seedKey).toString('base64')}`,
      `/o/incident/${seedKey.slice(0, 12)}`,
      `http://user:${seedKey}@127.0.0.1:9/hook`,
      `/o/incident/${laterKey}`,
      `/o/incident?apikey=${realKey}`,
    ];
    for (const text of cases) {
      const shown = scrub(text, realKey);
      expect({ text, forms: holdsAKey(shown), later: shown.includes(laterKey), real: shown.includes(realKey) }).toEqual({
        text,
        forms: [],
        later: false,
        real: false,
      });
      expect(shown).toContain('[redacted]');
    }
    expect(scrub(`/o/incident?q=${'x'.repeat(2_000)}`)).toHaveLength(501);
    // A header value far longer than any key (anyone can send 16 kB) is taken out whole.
    const long = `${'k'.repeat(5_000)}é`;
    expect(scrub(`/o/incident/${long}?again=${encodeURIComponent(long)}`, long)).toBe('/o/incident/[redacted]?again=[redacted]');
  });
});
