import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parametersFor } from '../../n8n-app/e2e/workflows.ts';
import { executePagerly, loadTeams } from '../../n8n-app/runtime/index.ts';
import { n8nNodeName } from '../../n8n-app/operation-names.ts';
import { nodeOperations } from '../../n8n-app/runtime/operations.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { LeakWatch } from '../support/leak-watch.ts';
import { closedPort } from '../support/loopback-server.ts';
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
        expect(Object.keys(items![0]!.json)).toEqual(expect.arrayContaining(operation.outputFields.map((f) => f.key)));
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

  it('an unknown resource or operation says to pick them again', async () => {
    const { context } = executeContext(good(), [{ resource: n8nNodeName(nodeOperations[0]!).resource, operation: 'no_such_operation' }]);
    const error = await failureOf(executePagerly(context, classes));
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toMatch(/pick them again/);
  });

  it("the team dropdown lists the organization's teams by name", async () => {
    const { context } = executeContext(good(), []);
    const teams = [...sandbox.world.teams.values()].filter((team) => team.orgId === 'org_acme').map((team) => team.name);
    expect((await loadTeams(context, classes)).map((o) => o.name).sort()).toEqual(teams.sort());
  });
});
