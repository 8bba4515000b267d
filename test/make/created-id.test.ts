import { afterEach, describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { appFromFiles } from '../../make-app/interpreter/runner/app-folder.ts';
import { MakeError } from '../../make-app/interpreter/runner/make-error.ts';
import { makeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { missingIdMessage } from '../../shared/errors.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { faultServer, json, type FaultServer } from '../support/fault-server.ts';

/**
 * The shared rule "a create answered 2xx without an id is no success" (shared/operations/
 * created-id.ts), which Make's IML cannot import: the generator writes it into the create
 * modules' `valid`, and here the runner holds the module to the same answers as the code.
 */
const app = appFromFiles(generateMakeApp());
const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function createIncident(answer: Parameters<typeof faultServer>[0][number]) {
  const server = await faultServer([answer]);
  servers.push(server);
  const runner = makeRunner(app, { origin: { from: DEFAULT_BASE_URL, to: server.url }, timeoutMs: 2_000 });
  return runner.module('createIncident', { connection: { apiKey: 'make-created-id-key' }, parameters: { title: 'Disk full' } }).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
}

describe('Make create modules: a success without an id is an error', () => {
  it.each([
    ['200 {}', json(200, {})],
    ['201 with an empty JSON body', { kind: 'answer' as const, status: 201, body: '', headers: { 'content-type': 'application/json' } }],
    ['204', { kind: 'answer' as const, status: 204, body: '' }],
    ['200 with an empty id', json(200, { id: ' ', title: 'Disk full' })],
  ])('%s: a DataError with the shared message', async (_name, answer) => {
    const { error } = await createIncident(answer);
    expect(error).toBeInstanceOf(MakeError);
    expect((error as MakeError).message).toContain(missingIdMessage('incident'));
  });

  it('an answer with its id is the output, as before', async () => {
    const { value, error } = await createIncident(json(201, { id: 'inc_0001', title: 'Disk full' }));
    expect(error).toBeUndefined();
    expect(value).toEqual([{ id: 'inc_0001', title: 'Disk full' }]);
  });

  it('a body that is not JSON still says so, not that the id is missing', async () => {
    const { error } = await createIncident({ kind: 'answer', status: 200, body: '<html>OK</html>', headers: { 'content-type': 'text/html' } });
    expect((error as MakeError).message).toContain('not JSON');
  });
});
