import { afterEach, describe, expect, it } from '@jest/globals';
import { execute, withBase } from '../../../make-app/interpreter/runner/execute.ts';
import { withoutEmptyValues } from '../../../make-app/interpreter/runner/empty-values.ts';
import { MakeError } from '../../../make-app/interpreter/runner/make-error.ts';
import type { MakeApp } from '../../../make-app/interpreter/runner/app-folder.ts';
import { makeRunner } from '../../../make-app/interpreter/runner/runner.ts';
import { faultServer, json, type Behaviour } from '../../support/fault-server.ts';

/**
 * Each rule the runner applies, held against the Make page it comes from, over real HTTP on
 * loopback. The runner stands in for Make: where it differs, green tests hide broken modules.
 */
const DOCS = 'https://developers.make.com/custom-apps-documentation';
const ERROR_HANDLING = `${DOCS}/app-structure/base/error-handling`;
const VALID = `${DOCS}/component-blocks/api/handling-responses/valid`;
const TEMP = `${DOCS}/component-blocks/api/handling-responses/temp`;
const ITERATE = `${DOCS}/component-blocks/api/handling-responses/iterate`;
const BASE = `${DOCS}/create-your-first-app/apps-environment/base`;
const SEARCH_MODULES = `${DOCS}/best-practices/action-and-search-modules`;
const EMPTY_VALUES = `${DOCS}/other/processing-of-empty-values`;
const ATTACHED = `${DOCS}/app-components/webhooks/dedicated/attached`;

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Runs `directives` against a server that answers `behaviour` once. */
async function run(behaviour: Behaviour, directives: Record<string, unknown>, scope: Record<string, unknown> = {}) {
  const server = await faultServer([behaviour]);
  servers.push(server);
  return execute('test', { url: server.url, method: 'GET', ...directives }, { parameters: {}, ...scope }, { timeoutMs: 2_000 });
}

async function failure(call: Promise<unknown>): Promise<MakeError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MakeError);
  return error as MakeError;
}

describe(`4xx and 5xx are always errors (${ERROR_HANDLING})`, () => {
  it('a 404 is an error even when `valid` says yes: "it is not possible to evaluate it as a success"', async () => {
    const error = await failure(run(json(404, [{ Error: 'gone' }]), { response: { valid: '{{true}}', output: '{{body}}' } }));
    expect([error.type, error.status]).toEqual(['RuntimeError', 404]);
  });

  it('takes the error directive for its status, else the general one (custom error handling based on status codes)', async () => {
    const response = {
      error: { type: 'DataError', message: '[{{statusCode}}] general', '503': { type: 'ConnectionError', message: '[{{statusCode}}] later' } },
    };
    const general = await failure(run(json(418, {}), { response }));
    expect([general.type, general.message]).toEqual(['DataError', '[418] general']);
    const specific = await failure(run(json(503, {}), { response }));
    expect([specific.type, specific.message]).toEqual(['ConnectionError', '[503] later']);
  });

  it('without an error directive the user sees the status code that was returned; RuntimeError is the default type', async () => {
    const error = await failure(run(json(500, {}), {}));
    expect([error.type, error.message]).toEqual(['RuntimeError', 'HTTP 500']);
  });
});

describe('no whole answer is a ConnectionError', () => {
  it.each([
    ['cut off short of its Content-Length', { kind: 'reset-mid-body', status: 200, body: '[{"id":"team_platform"}]', cutAt: 9 }],
    ['cut off in its chunks', { kind: 'reset-mid-body', status: 200, body: '[{"id":"team_platform"}]', cutAt: 9, chunked: true }],
    ['stalled part-way', { kind: 'stall-mid-body', status: 200, body: '[{"id":"team_platform"}]', cutAt: 9 }],
  ] as [string, Behaviour][])('an answer %s', async (_how, behaviour) => {
    const server = await faultServer([behaviour]);
    servers.push(server);
    const error = await failure(execute('test', { url: server.url, method: 'GET' }, { parameters: {} }, { timeoutMs: 300 }));
    expect(error.type).toBe('ConnectionError');
    expect(error.message).toMatch(/^Could not reach Pagerly at 127\.0\.0\.1:\d+: the answer stopped part-way/);
  });
});

describe(`valid decides only for 2xx and 3xx (${VALID})`, () => {
  it('without `valid`, any status from 200 to 399 is valid', async () => {
    await expect(run(json(200, { ok: 1 }), {})).resolves.toMatchObject({ bundles: [{ ok: 1 }] });
    await expect(run({ kind: 'answer', status: 302, body: '', headers: { location: '/elsewhere' } }, { followRedirects: false })).resolves.toMatchObject({
      bundles: [],
    });
  });

  it('a false `valid` stops the module with its own type and message', async () => {
    const error = await failure(
      run(json(200, { error: 'x' }), { response: { valid: { condition: '{{!body.error}}', type: 'DataError', message: '[{{statusCode}}] {{body.error}}' } } }),
    );
    expect([error.type, error.message]).toEqual(['DataError', '[200] x']);
  });

  it('the simple form is the same condition; without a message Make says "Response marked as invalid."', async () => {
    const error = await failure(run(json(200, { error: 'x' }), { response: { valid: '{{!body.error}}' } }));
    expect([error.type, error.message]).toEqual(['RuntimeError', 'Response marked as invalid.']);
  });
});

describe(`temp runs after the request, before every other response directive (${TEMP})`, () => {
  it('valid, error, iterate and output all read it', async () => {
    const response = {
      temp: { first: '{{body[1]}}' },
      valid: '{{temp.first != "stop"}}',
      iterate: '{{body}}',
      output: { item: '{{item}}', first: '{{temp.first}}' },
    };
    await expect(run(json(200, ['a', 'b']), { response })).resolves.toMatchObject({
      bundles: [
        { item: 'a', first: 'a' },
        { item: 'b', first: 'a' },
      ],
    });
    const error = await failure(
      run(json(404, ['nope']), { response: { temp: { said: '{{body[1]}}' }, error: { message: '[{{statusCode}}] {{temp.said}}' } } }),
    );
    expect(error.message).toBe('[404] nope');
  });
});

describe(`a request's own temp is made before the request; temp directives merge, never overwrite (${TEMP})`, () => {
  it('the request reads its temp ("url": "/user/{{temp.id}}") and the response sees it beside its own', async () => {
    const server = await faultServer([json(200, { name: 'grace' })]);
    servers.push(server);
    const outcome = await execute(
      'test',
      {
        temp: { id: 123 },
        url: `${server.url}/user/{{temp.id}}`,
        response: { temp: { name: '{{body.name}}' }, output: { id: '{{temp.id}}', name: '{{temp.name}}' } },
      },
      { parameters: {} },
      { timeoutMs: 2_000 },
    );
    expect(server.arrivals.map((arrival) => arrival.url)).toEqual(['/user/123']);
    expect(outcome.bundles).toEqual([{ id: 123, name: 'grace' }]);
    expect(outcome.temp).toEqual({ id: 123, name: 'grace' });
  });

  it("the page's example: temp of two requests and their responses add up, a later value replacing only its own name", async () => {
    const first = await faultServer([json(200, {})]);
    const second = await faultServer([json(200, {})]);
    servers.push(first, second);
    const files = new Map<string, unknown>([
      ['base.json', {}],
      [
        'module.json',
        [
          { url: first.url, temp: { foo: 'bar' }, response: { temp: { foo: 'baz', hello: 'world' } } },
          {
            url: second.url,
            temp: { param1: 'bar-{{temp.foo}}', param2: 'hello, {{temp.hello}}' },
            response: { temp: {}, output: { foo: '{{temp.foo}}', hello: '{{temp.hello}}', param1: '{{temp.param1}}', param2: '{{temp.param2}}' } },
          },
        ],
      ],
    ]);
    const manifest = { generalCodeFiles: { base: 'base.json' }, components: { module: { example: { codeFiles: { communication: 'module.json' } } } } };
    const runner = makeRunner({ manifest: manifest as unknown as MakeApp['manifest'], read: (path) => structuredClone(files.get(path)) }, { timeoutMs: 2_000 });
    await expect(runner.module('example', { connection: {}, parameters: {} })).resolves.toEqual([
      { foo: 'baz', hello: 'world', param1: 'bar-baz', param2: 'hello, world' },
    ]);
  });

  it("a module's temp directives join the Base's, name by name, the module's winning", () => {
    const base = { temp: { key: 'base' }, response: { temp: { said: 'base', shared: 'base' }, valid: 'base' } };
    const merged = withBase(base, { url: '/x', temp: { id: 'module' }, response: { temp: { current: 'module', shared: 'module' } } });
    expect(merged.temp).toEqual({ key: 'base', id: 'module' });
    expect(merged.response).toEqual({ temp: { said: 'base', shared: 'module', current: 'module' }, valid: 'base' });
  });
});

describe(`iterate: output runs once per item of an array, as \`item\` (${ITERATE})`, () => {
  it('one bundle per element; the container must be an array', async () => {
    const response = { iterate: '{{body.data}}', output: { id: '{{item.id}}' } };
    await expect(run(json(200, { data: [{ id: 1 }, { id: 2 }] }), { response })).resolves.toMatchObject({ bundles: [{ id: 1 }, { id: 2 }] });
    await expect(run(json(200, { data: [] }), { response })).resolves.toMatchObject({ bundles: [] });
    const error = await failure(run(json(200, { data: { id: 1 } }), { response }));
    expect(error.message).toBe('test: iterate did not give a list.');
  });
});

describe(`limit caps a search's bundles (${SEARCH_MODULES}: "limit": "{{parameters.limit}}")`, () => {
  it('keeps the first `limit` bundles; an empty limit keeps all; a bad one is a clear error', async () => {
    const response = { iterate: '{{body}}', limit: '{{parameters.limit}}', output: '{{item}}' };
    await expect(run(json(200, [1, 2, 3]), { response }, { parameters: { limit: 2 } })).resolves.toMatchObject({ bundles: [1, 2] });
    await expect(run(json(200, [1, 2, 3]), { response }, { parameters: {} })).resolves.toMatchObject({ bundles: [1, 2, 3] });
    const error = await failure(run(json(200, [1]), { response }, { parameters: { limit: 'many' } }));
    expect(error.message).toMatch(/limit must be a whole number/);
    // A fixed limit, as an RPC's (the team list) has: App review prerequisites make one mandatory.
    await expect(run(json(200, [1, 2, 3]), { response: { ...response, limit: 1 } })).resolves.toMatchObject({ bundles: [1] });
  });
});

describe(`base and module (${BASE})`, () => {
  it('the module inherits what it does not set and overrides what it sets; headers and response merge by name', () => {
    const base = {
      baseUrl: 'https://api.example',
      headers: { a: '1', b: '1' },
      response: { error: { message: 'base' }, valid: 'base' },
      log: { sanitize: ['request.headers.a'] },
    };
    const merged = withBase(base, { url: '/x', headers: { b: '2' }, response: { valid: 'module' } });
    expect(merged).toMatchObject({
      baseUrl: 'https://api.example',
      url: '/x',
      headers: { a: '1', b: '2' },
      response: { error: { message: 'base' }, valid: 'module' },
    });
  });
});

describe('headers and query string are collections (Make\'s api.json schema, sources.json "headers" and "qs": "type": "object")', () => {
  it('refuses headers given as one string, and a header value that is a list', async () => {
    const asText = await failure(run(json(200, {}), { headers: '{{"X-One: 1"}}' }));
    expect(asText.message).toBe('test: headers must be a collection of names and values, not string.');
    const listed = await failure(run(json(200, {}), { headers: { 'X-Two': '{{add(emptyarray, 1, 2)}}' } }));
    expect(listed.message).toBe('test: the header X-Two must be text, a number or true/false.');
    await failure(run(json(200, {}), { qs: '{{"a=1"}}' }));
  });
});

describe(`empty values are Make's to process (${EMPTY_VALUES})`, () => {
  it('a field left empty reaches the app as undefined, so the request leaves it out', () => {
    expect(withoutEmptyValues({ title: 'x', description: '', team: null, tags: [], count: 0, flag: false })).toEqual({ title: 'x', count: 0, flag: false });
  });
});

describe(`attach stores response.data for detach as webhook.* (${ATTACHED})`, () => {
  it('data is rendered from the answer, and only when the answer is valid', async () => {
    await expect(run(json(201, { id: 'hook_1' }), { response: { data: { externalHookId: '{{body.id}}' } } })).resolves.toMatchObject({
      data: { externalHookId: 'hook_1' },
    });
    await failure(run(json(409, { id: 'hook_1' }), { response: { data: { externalHookId: '{{body.id}}' } } }));
  });
});

const MULTIPLE_REQUESTS = `${DOCS}/component-blocks/api/multiple-requests`;

describe(`a module's list of requests runs in order, temp carried along, the last one's output is the module's (${MULTIPLE_REQUESTS})`, () => {
  /** A one-module app in memory: the Base and a module whose communication is `requests`. */
  function appWith(requests: unknown[]): MakeApp {
    const files = new Map<string, unknown>([
      ['base.json', { headers: { Accept: 'application/json' } }],
      ['module.json', requests],
    ]);
    const manifest = { generalCodeFiles: { base: 'base.json' }, components: { module: { twoSteps: { codeFiles: { communication: 'module.json' } } } } };
    return { manifest: manifest as unknown as MakeApp['manifest'], read: (path) => structuredClone(files.get(path)) };
  }

  it('"All requests are executed sequentially and the output of the last request is used as the module\'s output"', async () => {
    const user = await faultServer([json(200, { username: 'grace' })]);
    const items = await faultServer([json(200, [{ text: 'one' }, { text: 'two' }])]);
    servers.push(user, items);
    const runner = makeRunner(
      appWith([
        { url: `${user.url}/api/user`, response: { temp: { username: '{{body.username}}' } } },
        { url: `${items.url}/items`, response: { iterate: '{{body}}', output: { username: '{{temp.username}}', text: '{{item.text}}' } } },
      ]),
      { timeoutMs: 2_000 },
    );
    await expect(runner.module('twoSteps', { connection: {}, parameters: {} })).resolves.toEqual([
      { username: 'grace', text: 'one' },
      { username: 'grace', text: 'two' },
    ]);
    expect([user.arrivals.length, items.arrivals.length]).toEqual([1, 1]);
  });

  it('a failing first request ends the module: the second is never sent', async () => {
    const first = await faultServer([json(404, [{ Error: 'gone' }])]);
    const second = await faultServer([json(200, {})]);
    servers.push(first, second);
    const runner = makeRunner(appWith([{ url: first.url }, { url: second.url }]), { timeoutMs: 2_000 });
    const error = await failure(runner.module('twoSteps', { connection: {}, parameters: {} }));
    expect(error.status).toBe(404);
    expect(second.arrivals).toHaveLength(0);
  });
});
