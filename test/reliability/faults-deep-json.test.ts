import { afterEach, describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { appFromFiles } from '../../make-app/interpreter/runner/app-folder.ts';
import { MakeError } from '../../make-app/interpreter/runner/make-error.ts';
import { makeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { InvalidResponseError, type PagerlyError } from '../../shared/errors.ts';
import { jsonDepth, MAX_JSON_DEPTH, nestedDeeperThan } from '../../shared/http/json.ts';
import { MAX_PASSED_ON_CHARS } from '../../shared/http/response.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { run } from '../cli/support.ts';
import { faultServer, withoutStrayErrors, type FaultServer } from '../support/fault-server.ts';
import { isolateZapierCore } from '../support/zapier-core-isolation.ts';
import { makeComponents } from './make-components.ts';
import { READ_AND_CREATE, restoreBaseUrlAfterEach, zapierErrorName, zapierErrorPayload, zapierHandler } from './zapier-handler.ts';
import { rejection, serversClosedAfterEach } from './fault-fixtures.ts';

/**
 * A hostile service answers JSON nested 100,000 deep. V8's JSON.parse builds it without
 * recursing, but JSON.stringify, String(), zod, Zapier's output handling and Make's IML
 * would each overflow the stack walking it (RangeError). Every surface must end in its typed
 * invalid-response error instead, over real HTTP on loopback; but a create answered 2xx was done
 * (assumption `created-id`): it succeeds, the answer passed on as a bounded excerpt of its text.
 */
isolateZapierCore();

const KEY = 'faults-deep-json-key-7b2e4d90c1';
const DEPTH = 100_000;
const DEEP = {
  arrays: `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`,
  objects: `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`,
};
type Shape = keyof typeof DEEP;
const SHAPES = Object.keys(DEEP) as Shape[];

const servers = serversClosedAfterEach();
async function deepService(shape: Shape, status = 200): Promise<FaultServer> {
  const server = await faultServer([{ kind: 'answer', status, body: DEEP[shape], headers: { 'content-type': 'application/json' } }]);
  servers.push(server);
  return server;
}

/** Neither a RangeError nor anything that mentions one. */
const noStackOverflow = (error: unknown) => {
  expect(error).not.toBeInstanceOf(RangeError);
  expect(String((error as Error | undefined)?.message)).not.toMatch(/call stack/i);
};

describe('the depth check itself', () => {
  it('counts nesting without recursion and skips brackets inside strings', () => {
    expect(jsonDepth(DEEP.arrays)).toBe(DEPTH);
    expect(jsonDepth(DEEP.objects)).toBe(DEPTH);
    expect(jsonDepth('[{"a":"[[[[\\"[[["}]')).toBe(2);
    expect(jsonDepth('"no nesting"')).toBe(0);
  });

  it('measures a value already parsed without recursion, up to the limit and no further', () => {
    expect(nestedDeeperThan(JSON.parse(DEEP.arrays))).toBe(true);
    expect(nestedDeeperThan(JSON.parse(DEEP.objects))).toBe(true);
    const at = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
    expect(nestedDeeperThan(at(MAX_JSON_DEPTH))).toBe(false);
    expect(nestedDeeperThan(at(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestedDeeperThan({ a: 'text', b: [1, null, { c: true }] }, 3)).toBe(false);
    expect(nestedDeeperThan('text')).toBe(false);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(nestedDeeperThan(loop)).toBe(true);
  });

  // Proof that the hazard is real on this Node: the parsed value cannot be stringified.
  it('such a value parses, but JSON.stringify of it overflows the stack', () => {
    expect(() => JSON.stringify(JSON.parse(DEEP.arrays))).toThrow(RangeError);
  });
});

const NO_ID = 'gave no id that could be read';

describe('typed client', () => {
  it.each(SHAPES)('nested %s, listTeams (documented shape): InvalidResponseError', async (shape) => {
    const service = await deepService(shape);
    const client = createNodeClient({ apiKey: KEY, baseUrl: service.url, retries: 0 });
    const { result, stray } = await withoutStrayErrors(() => rejection<PagerlyError>(client.listTeams()));
    expect(stray).toEqual([]);
    noStackOverflow(result);
    expect(result).toBeInstanceOf(InvalidResponseError);
    expect(result!.message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(result!.message.length).toBeLessThan(400);
  });

  it.each(SHAPES)('nested %s, createOrUpdateIncident: done, the answer passed on as a bounded excerpt, no id', async (shape) => {
    const service = await deepService(shape);
    const client = createNodeClient({ apiKey: KEY, baseUrl: service.url, retries: 0 });
    const { result, stray } = await withoutStrayErrors(() => client.createOrUpdateIncident({ title: 'Disk full' }));
    expect(stray).toEqual([]);
    expect(result).toMatchObject({ id: '', note: expect.stringContaining(NO_ID) });
    expect(String(result.answer).length).toBeLessThanOrEqual(MAX_PASSED_ON_CHARS);
    expect(JSON.stringify(result).length).toBeLessThan(MAX_PASSED_ON_CHARS * 2);
  });

  // The key check is answered by its status: the body is not read, so its depth cannot hurt.
  it.each(SHAPES)('nested %s on the key check: a valid key, the body not read, no overflow', async (shape) => {
    const service = await deepService(shape);
    const { result, stray } = await withoutStrayErrors(() => createNodeClient({ apiKey: KEY, baseUrl: service.url, retries: 0 }).checkApiKey());
    expect(stray).toEqual([]);
    expect(result).toEqual({});
  });

  it.each([400, 403, 404, 500])('an error answer (HTTP %i) nested 100,000 deep ends in a typed error quoting a short excerpt', async (status) => {
    const service = await deepService('objects', status);
    const error = await rejection<PagerlyError>(createNodeClient({ apiKey: KEY, baseUrl: service.url, retries: 0 }).listTeams());
    noStackOverflow(error);
    expect(error.code).toBe(status === 500 ? 'server' : 'invalid_response');
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('command line', () => {
  it.each(SHAPES)('nested %s: a create is done (exit 0, the note on stderr); a list is invalid (exit 1)', async (shape) => {
    const service = await deepService(shape);
    const human = await run(['--base-url', service.url, 'incident', 'create', '--title', 'Disk full'], { env: { PAGERLY_API_KEY: KEY } });
    expect(human.code).toBe(0);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain(NO_ID);
    expect(human.stderr.length).toBeLessThan(1_000);
    const json = await run(['--base-url', service.url, 'teams', '--json'], { env: { PAGERLY_API_KEY: KEY } });
    expect(json.code).toBe(1);
    expect(json.errorJson().error).toMatchObject({ code: 'invalid_response', exitCode: 1 });
  });
});

describe("Zapier app (zapier-platform-core's handler)", () => {
  const zapier = zapierHandler();
  restoreBaseUrlAfterEach(afterEach);
  const [[trigger, triggerInput], [create, createInput]] = READ_AND_CREATE;

  it.each(SHAPES)(`nested %s, ${trigger}: the step stops with invalid_response`, async (shape) => {
    const service = await deepService(shape);
    process.env.PAGERLY_BASE_URL = service.url;
    const { result, stray } = await withoutStrayErrors(() => rejection(zapier.run(trigger, { authData: { apiKey: KEY }, inputData: triggerInput })));
    expect(stray).toEqual([]);
    noStackOverflow(result);
    expect(zapierErrorName(result)).toBe('AppError:invalid_response');
    expect(String(zapierErrorPayload(result).message)).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it.each(SHAPES)(`nested %s, ${create}: the step succeeds with an empty id, a note and a bounded excerpt`, async (shape) => {
    const service = await deepService(shape);
    process.env.PAGERLY_BASE_URL = service.url;
    const { result, stray } = await withoutStrayErrors(() => zapier.run(create, { authData: { apiKey: KEY }, inputData: createInput }));
    expect(stray).toEqual([]);
    expect(result.results).toMatchObject({ id: '', note: expect.stringContaining(NO_ID) });
    expect(JSON.stringify(result.results).length).toBeLessThan(MAX_PASSED_ON_CHARS * 2);
  });
});

describe('Make app (the generated app through the runner)', () => {
  const app = appFromFiles(generateMakeApp());
  const requesting = makeComponents.filter((component) => component.endpoint !== undefined);

  it.each(SHAPES.flatMap((shape) => requesting.map((component) => [shape, component.name, component] as const)))(
    'nested %s, %s: DataError',
    async (shape, _name, component) => {
      const service = await deepService(shape);
      const runner = makeRunner(app, { origin: { from: DEFAULT_BASE_URL, to: service.url }, timeoutMs: 5_000 });
      const error = await rejection(component.run(runner, KEY));
      noStackOverflow(error);
      expect(error).toBeInstanceOf(MakeError);
      expect(error).toMatchObject({ type: 'DataError' });
      expect((error as MakeError).message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    },
  );
});
