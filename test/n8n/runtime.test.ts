import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parametersFor } from '../../n8n-app/e2e/workflows.ts';
import { executePagerly, searchTeams } from '../../n8n-app/runtime/index.ts';
import { DELETED, outputKeys } from '../../n8n-app/runtime/execute.ts';
import { collectionOf, LIMIT, locatorValue, parametersOf, RETURN_ALL, returnsMany } from '../../n8n-app/parameters.ts';
import { n8nNodeName } from '../../n8n-app/operation-names.ts';
import { nodeOperations } from '../../n8n-app/runtime/operations.ts';
import { createSandbox, demoKeys, type Sandbox, scaleKey, scaleSeed } from '../../sandbox/index.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { LeakWatch } from '../support/leak-watch.ts';
import { closedPort, loopbackServer } from '../support/loopback-server.ts';
import { classes, credentialFor, executeContext, NodeApiError, NodeOperationError, type NodeApiErrorType, type NodeOperationErrorType } from './support.ts';

let sandbox: Sandbox;
let url: string;
const good = () => credentialFor(demoKeys.acmeAdmin, url);

beforeAll(async () => {
  sandbox = await createSandbox({ clock: { mode: 'fixed' } });
  url = await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
});

async function failureOf(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure, but it succeeded');
}

describe('the Pagerly node, run as n8n runs it, against the sandbox over loopback', () => {
  it('runs every action and search of shared/operations; an action gives one item with every declared output field', async () => {
    expect(nodeOperations.length).toBeGreaterThan(0);
    for (const operation of nodeOperations) {
      const { context, sent } = executeContext(good(), [parametersFor(operation, 'Platform')]);
      const [items] = await executePagerly(context, classes);
      // An update that keeps what is left empty reads the entry first; a search read team by
      // team with no team given lists the teams, then asks each of the sandbox's three by name.
      const teamByTeam = operation.kind === 'search' && operation.teamByTeam !== undefined;
      expect({ id: operation.id, requests: sent.length }).toEqual({
        id: operation.id,
        requests: operation.kind === 'action' && operation.keepsOmitted ? 2 : teamByTeam ? 4 : 1,
      });
      if (teamByTeam) expect(sent.map((request) => new URL(request.url).searchParams.get('teamname')).slice(1)).toEqual(['Platform', 'Payments', 'Mobile']);
      if (operation.kind === 'action') {
        expect(items).toHaveLength(1);
        expect(Object.keys(items![0]!.json)).toEqual(expect.arrayContaining(outputKeys(operation)));
        expect(items![0]!.pairedItem).toEqual({ item: 0 });
      }
    }
  });

  it("sends the key in X-APIKEY only, to the credential's base", async () => {
    const search = nodeOperations.find((op) => op.kind === 'search')!;
    const { context, sent } = executeContext(good(), [parametersFor(search, 'Platform')]);
    await executePagerly(context, classes);
    expect(sent[0]!.url.startsWith(url)).toBe(true);
    expect(
      Object.entries(sent[0]!.headers)
        .filter(([, value]) => value.includes(demoKeys.acmeAdmin))
        .map(([name]) => name),
    ).toEqual([API_KEY_HEADER]);
  });

  it('a search that finds nothing gives no item, not an error', async () => {
    const search = nodeOperations.find((op) => op.kind === 'search' && op.notFoundIsEmpty)!;
    const field = search.inputFields.find((f) => f.required)!;
    const { context } = executeContext(good(), [{ ...parametersFor(search, ''), [field.key]: 'nobody.here@acme.example' }]);
    expect(await executePagerly(context, classes)).toEqual([[]]);
  });

  it("a refused key is a NodeApiError with the HTTP status and the service's words, never the key", async () => {
    const badKey = 'sbx_acme_wrong_0000000000000000';
    const { context } = executeContext(credentialFor(badKey, url), [parametersFor(nodeOperations[0]!, 'Platform')]);
    const error = await failureOf(executePagerly(context, classes));
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as NodeApiErrorType).httpCode).toBe('400');
    expect(error.message).toMatch(/API key/i);
    const watch = new LeakWatch();
    watch.value('error', error);
    expect(watch.leaks([badKey])).toEqual([]);
  });

  it('bad input is a NodeOperationError that names the field, and nothing is sent', async () => {
    const operation = nodeOperations.find((op) => op.inputFields.some((f) => f.type === 'phone' && f.required))!;
    const phone = operation.inputFields.find((f) => f.type === 'phone')!;
    const { context, sent } = executeContext(good(), [{ ...parametersFor(operation, ''), [phone.key]: 'call me maybe' }]);
    const error = await failureOf(executePagerly(context, classes));
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toContain(phone.key);
    expect((error as NodeOperationErrorType).context.itemIndex).toBe(0);
    expect(sent).toEqual([]);
  });

  it('a create whose title is too long says it cannot create the incident, naming no update, and sends nothing', async () => {
    // POST /o/incident creates and updates; the Create an incident action only creates.
    const create = nodeOperations.find((op) => op.id === 'createIncident')!;
    const { context, sent } = executeContext(good(), [{ ...parametersFor(create, 'Platform'), title: 'x'.repeat(300) }]);
    const error = await failureOf(executePagerly(context, classes));
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toMatch(/^Cannot create an incident: title /);
    expect(error.message).not.toMatch(/update/i);
    expect(sent).toEqual([]);
  });

  it('with "Continue On Fail" a failed item becomes {error} and the next item still runs', async () => {
    const operation = nodeOperations.find((op) => op.inputFields.some((f) => f.type === 'phone' && f.required))!;
    const phone = operation.inputFields.find((f) => f.type === 'phone')!;
    const search = nodeOperations.find((op) => op.kind === 'search')!;
    const { context } = executeContext(good(), [{ ...parametersFor(operation, ''), [phone.key]: 'nope' }, parametersFor(search, 'Platform')], {
      continueOnFail: true,
    });
    const [items] = await executePagerly(context, classes);
    expect(items![0]).toEqual({ json: { error: expect.stringContaining(phone.key) }, pairedItem: { item: 0 } });
    expect(items!.slice(1).map((item) => item.pairedItem)).toEqual(items!.slice(1).map(() => ({ item: 1 })));
  });

  it('a service that cannot be reached is a NodeApiError naming the host, holding neither the key nor the request', async () => {
    const down = await closedPort();
    const { context } = executeContext(credentialFor(demoKeys.acmeAdmin, down), [parametersFor(nodeOperations[0]!, 'Platform')]);
    const error = await failureOf(executePagerly(context, classes));
    expect(error).toBeInstanceOf(NodeApiError);
    // n8n shows its own sentence for a refused connection as the message; the description, shown
    // under it, says which host and what to check.
    expect((error as NodeApiErrorType).description).toContain(new URL(down).host);
    expect((error as NodeApiErrorType).description).toContain('Base URL');
    const watch = new LeakWatch();
    watch.value('error', error);
    expect(watch.leaks([demoKeys.acmeAdmin])).toEqual([]);
  });

  it("the service's reason in an error shows its bidi and zero-width controls, never applied (shared/visible-controls.ts)", async () => {
    const service = await loopbackServer((request, response) => {
      request.resume();
      response.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify([{ Error: 'Team Deploy \u202Egnp.exe\u202C of Ad\u200bmin' }]));
    });
    try {
      const { context } = executeContext(credentialFor(demoKeys.acmeAdmin, service.url), [parametersFor(nodeOperations[0]!, 'Platform')]);
      const error = (await failureOf(executePagerly(context, classes))) as NodeApiErrorType;
      expect(error).toBeInstanceOf(NodeApiError);
      for (const text of [error.message, error.description].filter((text) => text)) {
        expect(text).toContain('Team Deploy \\u202egnp.exe\\u202c of Ad\\u200bmin');
        expect(text).not.toMatch(/[\u202e\u202c\u200b]/);
      }
    } finally {
      await service.close();
    }
  });

  it('an unknown resource or operation says to pick them again', async () => {
    const { context } = executeContext(good(), [{ resource: n8nNodeName(nodeOperations[0]!).resource, operation: 'no_such_operation' }]);
    const error = await failureOf(executePagerly(context, classes));
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toMatch(/pick them again/);
  });

  it("the team resource locator lists the organization's teams by name, narrowed by what is typed", async () => {
    const { context } = executeContext(good(), []);
    const teams = [...sandbox.world.teams.values()].filter((team) => team.orgId === 'org_acme').map((team) => team.name);
    const all = await searchTeams(context, classes);
    expect(all.results.map((o) => o.name).sort()).toEqual(teams.sort());
    expect(all.results.every((o) => o.value === o.name)).toBe(true);
    expect((await searchTeams(context, classes, 'PAY')).results.map((o) => o.name)).toEqual(teams.filter((name) => /pay/i.test(name)));
  });

  it("the team list's labels show a name's bidi and zero-width controls, never applied; its value is the name as it came", async () => {
    // n8n's editor is a web page: "Deploy \u202Egnp.exe" would read "Deploy exe.png" (shared/visible-controls.ts).
    const names = ['Deploy \u202Egnp.exe\u202C', 'Ops\u200b'];
    const service = await loopbackServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(names.map((name, i) => ({ id: `team_${i}`, name }))));
    });
    try {
      const { context } = executeContext(credentialFor(demoKeys.acmeAdmin, service.url), []);
      expect((await searchTeams(context, classes)).results).toEqual([
        { name: 'Deploy \\u202egnp.exe\\u202c', value: names[0] },
        { name: 'Ops\\u200b', value: names[1] },
      ]);
      expect((await searchTeams(context, classes, 'gnp')).results.map((o) => o.value)).toEqual([names[0]]);
    } finally {
      await service.close();
    }
  });
});

// n8n's UX guidelines, "Deleting operations output" and "Get Many":
// https://docs.n8n.io/integrations/creating-nodes/build/reference/ux-guidelines/
describe("the Pagerly node's n8n idiom at run time", () => {
  const byEffect = (effect: string) => nodeOperations.find((op) => op.kind === 'action' && op.effect === effect)!;

  it('a delete outputs one item {"deleted": true}, also for someone already removed', async () => {
    const remove = byEffect('delete');
    const email = remove.inputFields.find((f) => f.required)!;
    const create = nodeOperations.find((op) => op.kind === 'action' && op.effect === 'create' && op.inputFields.some((f) => f.key === email.key))!;
    const person = 'leaving@acme.example';
    await executePagerly(executeContext(good(), [parametersFor(create, 'Platform', { [email.key]: person })]).context, classes);
    const first = await executePagerly(executeContext(good(), [parametersFor(remove, 'Platform', { [email.key]: person })]).context, classes);
    expect(first).toEqual([[{ json: DELETED, pairedItem: { item: 0 } }]]);
    const again = await executePagerly(executeContext(good(), [parametersFor(remove, 'Platform', { [email.key]: person })]).context, classes);
    expect(again).toEqual([[{ json: { deleted: true }, pairedItem: { item: 0 } }]]);
  });

  it('Get Many returns up to Limit items, or every one with Return All', async () => {
    const many = nodeOperations.find(returnsMany)!;
    const run = async (extra: Record<string, unknown>) =>
      (await executePagerly(executeContext(good(), [{ ...parametersFor(many, 'Platform'), ...extra }]).context, classes))[0]!.length;
    const all = await run({ [RETURN_ALL]: true });
    expect(all).toBeGreaterThan(1);
    expect(await run({ [RETURN_ALL]: false, [LIMIT]: 1 })).toBe(1);
    expect(await run({ [RETURN_ALL]: false, [LIMIT]: all + 5 })).toBe(all);
  });

  it('Get Many of who is on call in every team reads only the teams its Limit needs: the same first items, fewer requests', async () => {
    const big = await createSandbox({ seed: scaleSeed({ teams: 500 }), rateLimit: false, console: false });
    try {
      const bigUrl = await big.listen();
      const onCall = nodeOperations.find((op) => op.kind === 'search' && op.teamByTeam !== undefined)!;
      const run = (extra: Record<string, unknown>) => {
        const { context, sent } = executeContext(credentialFor(scaleKey(0), bigUrl), [{ ...parametersFor(onCall, '', { teamname: '' }), ...extra }]);
        return executePagerly(context, classes).then(([items]) => ({ items: items!.map((item) => item.json), sent: sent.length }));
      };
      const all = await run({ [RETURN_ALL]: true });
      const some = await run({ [RETURN_ALL]: false, [LIMIT]: 10 });
      expect(all.sent).toBe(501);
      expect(some.items).toEqual(all.items.slice(0, 10));
      // The team list, the five teams of two that hold ten, and at most the few asked at once beside them.
      expect(some.sent).toBeLessThanOrEqual(1 + 5 + 3);
    } finally {
      await big.close();
    }
  });

  it('reads optional fields from their collection and a team from its resource locator, in either mode', async () => {
    const create = nodeOperations.find((op) => op.kind === 'action' && op.effect === 'create' && op.inputFields.some((f) => f.dynamic === 'team'))!;
    const team = create.inputFields.find((f) => f.dynamic === 'team')!;
    for (const mode of ['list', 'name']) {
      const parameters = { ...parametersFor(create, 'Platform'), [collectionOf(create).name]: { [team.key]: locatorValue('Payments', mode) } };
      const { context, sent } = executeContext(good(), [parameters]);
      const [items] = await executePagerly(context, classes);
      expect(JSON.parse(sent[0]!.body!)).toMatchObject({ [team.key]: 'Payments' });
      expect(items![0]!.json).toMatchObject({ [team.key]: 'Payments' });
    }
    // A field not added to the collection is not sent.
    const { context, sent } = executeContext(good(), [
      {
        ...parametersOf(create, Object.fromEntries(create.inputFields.filter((f) => f.required).map((f) => [f.key, f.example ?? 'x']))),
        resource: 'incident',
        operation: 'create',
      },
    ]);
    await executePagerly(context, classes);
    expect(Object.keys(JSON.parse(sent[0]!.body!))).not.toContain(team.key);
  });

  it('with "Continue On Fail" every failed item keeps its pairing, and the items around it still run', async () => {
    const operation = nodeOperations.find((op) => op.inputFields.some((f) => f.type === 'phone' && f.required))!;
    const phone = operation.inputFields.find((f) => f.type === 'phone')!;
    const search = nodeOperations.find((op) => op.kind === 'search' && !returnsMany(op))!;
    const found = parametersFor(search, 'Platform', { email: 'alan@acme.example' });
    const bad = parametersFor(operation, '', { [phone.key]: 'nope' });
    const { context } = executeContext(good(), [found, bad, found], { continueOnFail: true });
    const [items] = await executePagerly(context, classes);
    expect(items!.find((item) => 'error' in item.json)!.pairedItem).toEqual({ item: 1 });
    expect(new Set(items!.map((item) => (item.pairedItem as { item: number }).item))).toEqual(new Set([0, 1, 2]));
  });
});
