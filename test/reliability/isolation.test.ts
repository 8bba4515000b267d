import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import { demoKeys, HOUR, startReceiver, startSandbox, type Answer, type Receiver, type Running } from '../sandbox/support.ts';

/**
 * Organization isolation on every route of the catalog. Acme (org_acme) and Globex
 * (org_globex) of the demo seed; Globex's key (an org admin's, so no admin rule stands in the
 * way) tries to read and change Acme's teams, on-call people, incidents (by id), directory
 * entries (by e-mail) and hook subscriptions (by id). Each attempt must end in a 404 that is
 * the same answer as for a thing that does not exist anywhere (no existence oracle), or in
 * Globex's own data only; and Acme's data must be exactly what it was.
 */
const ACME = 'org_acme';
const GLOBEX = 'org_globex';
const globex = demoKeys.globexAdmin;
const acme = demoKeys.acmeAdmin;
const PREFIXES = ['', '/pagerly'] as const;

let running: Running;
let acmeHooks: Receiver;
let globexHooks: Receiver;
/** What Acme made before the attacks. */
const made: { incident?: string; zapierSub?: string; makeSub?: string } = {};
let before: unknown;

function call(path: string, key: string, method = 'GET', body?: unknown): Promise<Answer> {
  return running.call(path, { key, method, ...(body === undefined ? {} : { body }) });
}

const acmePeople = () => [...running.sandbox.world.people.values()].filter((person) => person.orgId === ACME);
const acmeEmails = () => acmePeople().map((person) => person.email);

/** Everything of Acme's: as Acme's own keys see it through the API, and as the sandbox stores it. */
async function acmeState() {
  const { world } = running.sandbox;
  const acmeTeams = [...world.teams.values()].filter((team) => team.orgId === ACME);
  const seen = async (path: string, key = acme) => {
    const answer = await call(path, key);
    return { status: answer.status, body: answer.json };
  };
  return structuredClone({
    keys: await Promise.all([demoKeys.acmeAdmin, demoKeys.acmeUser, demoKeys.acmeOwner].map((key) => seen('/o/test/apikey', key))),
    teams: await seen('/pagerly/o/zapier/allteams'),
    onCall: await seen('/pagerly/o/currentusers'),
    onCallByTeam: await Promise.all(acmeTeams.map((team) => seen(`/pagerly/o/currentusers?teamname=${encodeURIComponent(team.name)}`))),
    directory: await Promise.all(acmeEmails().map((email) => seen(`/o/oncalluser?email=${encodeURIComponent(email)}`))),
    stored: {
      people: acmePeople(),
      teams: acmeTeams,
      rotations: [...world.rotations.values()].filter((rotation) => acmeTeams.some((team) => team.id === rotation.teamId)),
      incidents: [...world.incidents.values()].filter((incident) => incident.orgId === ACME),
      subscriptions: [...world.subscriptions.values()].filter((subscription) => subscription.orgId === ACME),
    },
  });
}

/** Texts that name Acme's data; none may appear in a successful answer to Globex. */
function acmeMarkers(): string[] {
  const { world } = running.sandbox;
  return [
    ACME,
    'Acme',
    ...acmePeople().flatMap((person) => [person.id, person.name, person.email, ...(person.phone ? [person.phone] : [])]),
    ...[...world.teams.values()].filter((team) => team.orgId === ACME).flatMap((team) => [team.id, team.name]),
    ...[made.incident!, made.zapierSub!, made.makeSub!],
  ];
}

/** A Globex answer that must be Globex's own data: 2xx, and nothing of Acme's in it. */
function expectOwnData(answer: Answer, what: string) {
  expect({ what, status: answer.status < 300 }).toEqual({ what, status: true });
  const leaked = acmeMarkers().filter((marker) => answer.text.includes(marker));
  expect({ what, leaked }).toEqual({ what, leaked: [] });
}

/**
 * A Globex answer that must be a 404, byte for byte the answer for something that exists in no
 * organization (`probe(absent)` gives that answer; the names differ only where the caller's own input is quoted).
 */
async function expectNotFoundLikeAbsent(answer: Answer, probe: (value: string) => Promise<Answer>, value: string, absent: string, what: string) {
  const reference = await probe(absent);
  expect({ what, status: reference.status }).toEqual({ what, status: 404 });
  expect({ what, status: answer.status, text: answer.text }).toEqual({ what, status: 404, text: reference.text.split(absent).join(value) });
}

beforeAll(async () => {
  running = await startSandbox({ rateLimit: false });
  acmeHooks = await startReceiver();
  globexHooks = await startReceiver();
  const incident = await call('/o/incident', acme, 'POST', { title: 'Acme checkout down', severity: 'P1', teamname: 'Platform' });
  const zapierSub = await call('/o/zapier/subscribe', acme, 'POST', { url: `${acmeHooks.url}?zapier`, teamname: 'Platform' });
  const makeSub = await call('/o/make/subscribe', acme, 'POST', { url: `${acmeHooks.url}?make`, teamname: 'Platform' });
  expect([incident.status, zapierSub.status, makeSub.status]).toEqual([201, 201, 201]);
  made.incident = incident.json.id;
  made.zapierSub = zapierSub.json.id;
  made.makeSub = makeSub.json.id;
});
afterAll(async () => {
  await acmeHooks.close();
  await globexHooks.close();
  await running.sandbox.close();
});

/** For each endpoint of the catalog, what Globex's key tries against Acme (the compiler insists on all 13). */
const attacks = {
  checkApiKey: async () => {
    for (const prefix of PREFIXES) {
      const answer = await call(`${prefix}/o/test/apikey`, globex);
      expectOwnData(answer, 'checkApiKey');
      expect(answer.json).toMatchObject({ user: { id: 'usr_rosalind' }, organization: { id: GLOBEX, name: 'Globex' } });
    }
  },

  listTeams: async () => {
    for (const prefix of PREFIXES) {
      const answer = await call(`${prefix}/o/zapier/allteams`, globex);
      expectOwnData(answer, 'listTeams');
      expect(answer.json).toEqual([{ id: 'team_operations', name: 'Operations' }]);
    }
  },

  listOnCallUsers: async () => {
    const globexIds = new Set([...running.sandbox.world.people.values()].filter((p) => p.orgId === GLOBEX).map((p) => p.id));
    for (const prefix of PREFIXES) {
      const everyone = await call(`${prefix}/o/currentusers`, globex);
      expectOwnData(everyone, 'listOnCallUsers (all teams)');
      expect((everyone.json as { id: string }[]).every((user) => globexIds.has(user.id))).toBe(true);
      expect(everyone.json.length).toBeGreaterThan(0);
      const probe = (name: string) => call(`${prefix}/o/currentusers?teamname=${encodeURIComponent(name)}`, globex);
      for (const name of ['Platform', 'payments', ' Mobile ']) {
        await expectNotFoundLikeAbsent(await probe(name), probe, name.trim(), 'No Such Team 0451', `listOnCallUsers of Acme's ${name}`);
      }
    }
  },

  createOrUpdateIncident: async () => {
    const count = running.sandbox.world.incidents.size;
    const update = (id: string) => call('/o/incident', globex, 'POST', { id, title: 'Hijacked', severity: 'P5', status: 'resolved', description: 'by Globex' });
    for (const prefix of PREFIXES) {
      const probe = (id: string) => call(`${prefix}/o/incident`, globex, 'POST', { id, title: 'Hijacked', status: 'resolved' });
      await expectNotFoundLikeAbsent(await probe(made.incident!), probe, made.incident!, 'inc_9999', 'update of an Acme incident by id');
    }
    await expectNotFoundLikeAbsent(await update(made.incident!), update, made.incident!, 'inc_9998', 'update of an Acme incident with every field');
    const routed = (teamname: string) => call('/o/incident', globex, 'POST', { title: 'Routed to Acme', teamname });
    await expectNotFoundLikeAbsent(await routed('Platform'), routed, 'Platform', 'No Such Team 0451', 'a new incident routed to an Acme team');
    expect(running.sandbox.world.incidents.size).toBe(count);
  },

  getDirectoryEntry: async () => {
    for (const prefix of PREFIXES) {
      const probe = (email: string) => call(`${prefix}/o/oncalluser?email=${encodeURIComponent(email)}`, globex);
      for (const email of acmeEmails()) {
        await expectNotFoundLikeAbsent(await probe(email), probe, email, 'nobody.0451@nowhere.example', `get ${email}`);
        await expectNotFoundLikeAbsent(
          await probe(email.toUpperCase()),
          probe,
          email.toUpperCase(),
          'NOBODY.0451@NOWHERE.EXAMPLE',
          `get ${email} in upper case`,
        );
      }
    }
  },

  upsertDirectoryEntry: async () => {
    // The same e-mail may exist in two organizations: Globex gets an entry of its own, and an
    // Acme owner's e-mail is no different (a 403 "the owner cannot be replaced" would tell Globex
    // who owns Acme).
    for (const email of ['katherine@acme.example', 'ada@acme.example']) {
      const answer = await call('/o/oncalluser', globex, 'POST', { email, name: 'Globex Copy', phone: '+16175550199' });
      expect({ email, status: answer.status }).toEqual({ email, status: 201 });
      expect(answer.json).toMatchObject({ email, name: 'Globex Copy', phone: '+16175550199', role: 'user' });
      const stored = running.sandbox.world.people.get(answer.json.id);
      expect(stored).toMatchObject({ orgId: GLOBEX, email });
      expect(acmePeople().map((person) => person.id)).not.toContain(answer.json.id);
      // Globex's own entry, removed again by Globex: Acme's person of that e-mail stays.
      const removed = await call(`/o/oncalluser?email=${encodeURIComponent(email)}`, globex, 'DELETE');
      expect([removed.status, removed.json]).toEqual([200, { email, removed: true }]);
    }
  },

  updateDirectoryPhone: async () => {
    const probe = (email: string) => call('/o/oncalluser/phone', globex, 'POST', { email, phone: '+16175550100' });
    for (const email of acmeEmails()) await expectNotFoundLikeAbsent(await probe(email), probe, email, 'nobody.0451@nowhere.example', `phone of ${email}`);
  },

  changeDirectoryRole: async () => {
    const probe = (email: string) => call('/o/oncalluser/role', globex, 'POST', { email, role: 'admin' });
    // The owner included: a 404, not the 403 an Acme admin would get.
    for (const email of acmeEmails()) await expectNotFoundLikeAbsent(await probe(email), probe, email, 'nobody.0451@nowhere.example', `role of ${email}`);
  },

  removeDirectoryEntry: async () => {
    for (const prefix of PREFIXES) {
      const probe = (email: string) => call(`${prefix}/o/oncalluser?email=${encodeURIComponent(email)}`, globex, 'DELETE');
      for (const email of acmeEmails()) await expectNotFoundLikeAbsent(await probe(email), probe, email, 'nobody.0451@nowhere.example', `remove ${email}`);
    }
    // The keys of the people Globex tried to remove still work.
    expect((await call('/o/test/apikey', demoKeys.acmeUser)).status).toBe(200);
  },

  subscribeZapierHook: async () => {
    const probe = (teamname: string) => call('/o/zapier/subscribe', globex, 'POST', { url: `${globexHooks.url}?zapier`, teamname });
    await expectNotFoundLikeAbsent(await probe('Platform'), probe, 'Platform', 'No Such Team 0451', 'a Zapier hook on an Acme team');
    const everyTeam = await call('/o/zapier/subscribe', globex, 'POST', { url: `${globexHooks.url}?zapier` });
    expect(everyTeam.status).toBe(201);
    expectOwnData(everyTeam, 'a Zapier hook on every team');
    expect(running.sandbox.world.subscriptions.get(everyTeam.json.id)).toMatchObject({ orgId: GLOBEX, teamId: null });
  },

  subscribeMakeHook: async () => {
    const probe = (teamname: string) => call('/o/make/subscribe', globex, 'POST', { url: `${globexHooks.url}?make`, teamname });
    await expectNotFoundLikeAbsent(await probe('payments'), probe, 'payments', 'No Such Team 0451', 'a Make hook on an Acme team');
    const everyTeam = await call('/o/make/subscribe', globex, 'POST', { url: `${globexHooks.url}?make` });
    expect(everyTeam.status).toBe(201);
    expectOwnData(everyTeam, 'a Make hook on every team');
    expect(running.sandbox.world.subscriptions.get(everyTeam.json.id)).toMatchObject({ orgId: GLOBEX, teamId: null });
  },

  unsubscribeZapierHook: async () => {
    for (const prefix of PREFIXES) {
      const probe = (id: string) => call(`${prefix}/o/zapier/subscribe/${id}`, globex, 'DELETE');
      await expectNotFoundLikeAbsent(await probe(made.zapierSub!), probe, made.zapierSub!, 'sub_9999', "remove Acme's Zapier hook");
      // Nor under the other platform's path.
      const other = (id: string) => call(`${prefix}/o/make/subscribe/${id}`, globex, 'DELETE');
      await expectNotFoundLikeAbsent(await other(made.zapierSub!), other, made.zapierSub!, 'sub_9999', "remove Acme's Zapier hook as a Make one");
    }
  },

  unsubscribeMakeHook: async () => {
    for (const prefix of PREFIXES) {
      const probe = (id: string) => call(`${prefix}/o/make/subscribe/${id}`, globex, 'DELETE');
      await expectNotFoundLikeAbsent(await probe(made.makeSub!), probe, made.makeSub!, 'sub_9999', "remove Acme's Make hook");
      // Nor under another platform's path: Acme's own key cannot remove a Make hook as a Zapier one.
      const asZapier = await call(`${prefix}/o/zapier/subscribe/${made.makeSub!}`, acme, 'DELETE');
      expect(asZapier.status).toBe(404);
    }
  },
} satisfies Record<EndpointKey, () => Promise<void>>;

describe("Globex's key cannot read or change Acme's data", () => {
  it('attacks every endpoint of the catalog', () => {
    expect(Object.keys(attacks).sort()).toEqual(Object.keys(endpoints).sort());
    expect(Object.keys(attacks)).toHaveLength(13);
  });

  it("Acme's things exist and are Acme's (so a 404 below is isolation, not absence)", async () => {
    expect((await call(`/o/oncalluser?email=katherine%40acme.example`, acme)).status).toBe(200);
    expect((await call('/o/incident', acme, 'POST', { id: made.incident, title: 'Acme checkout down' })).status).toBe(200);
    expect(running.sandbox.world.subscriptions.get(made.zapierSub!)).toMatchObject({ orgId: ACME, platform: 'zapier' });
    expect(running.sandbox.world.subscriptions.get(made.makeSub!)).toMatchObject({ orgId: ACME, platform: 'make' });
    before = await acmeState();
  });

  it.each(Object.keys(attacks) as EndpointKey[])("%s: a 404 like for a thing that does not exist, or Globex's own data only", async (key) => {
    await attacks[key]();
  });

  it("Acme's data is exactly as it was", async () => {
    expect(await acmeState()).toEqual(before);
  });

  it("after the next handover, Globex's hooks on \"every team\" got Globex's changes only, Acme's got Acme's", async () => {
    await running.sandbox.clock.advance(HOUR);
    await running.sandbox.deliveries.idle();
    const globexTeams = new Set([...running.sandbox.world.teams.values()].filter((team) => team.orgId === GLOBEX).map((team) => team.name));
    expect(globexHooks.received.length).toBeGreaterThanOrEqual(2); // one per hook (Zapier, Make): Operations hands over at 09:00
    expect(globexHooks.received.every((hook) => globexTeams.has(hook.body.team.name))).toBe(true);
    const acmeMarkerList = acmeMarkers();
    for (const hook of globexHooks.received) {
      const text = JSON.stringify(hook.body);
      expect(acmeMarkerList.filter((marker) => text.includes(marker))).toEqual([]);
    }
    expect(acmeHooks.received.length).toBeGreaterThanOrEqual(2);
    expect(acmeHooks.received.every((hook) => hook.body.team.name === 'Platform')).toBe(true);
  });
});
