import { describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { appFromFiles } from '../../make-app/interpreter/runner/app-folder.ts';
import { MakeError } from '../../make-app/interpreter/runner/make-error.ts';
import { makeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { RedirectError, type PagerlyError } from '../../shared/errors.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { run } from '../cli/support.ts';
import { faultServer, json, type Behaviour, type FaultServer } from '../support/fault-server.ts';
import { executePagerly, pollOnCallChanges, searchTeams } from '../../n8n-app/runtime/index.ts';
import { parametersFor } from '../../n8n-app/e2e/workflows.ts';
import { nodeOperations } from '../../n8n-app/runtime/operations.ts';
import { classes, credentialFor, executeContext, pollContext } from '../n8n/support.ts';
import { makeComponents } from './make-components.ts';
import { rejection, serversClosedAfterEach } from './fault-fixtures.ts';

/**
 * A hostile service answers with a redirect to another origin, over real HTTP on loopback: two
 * servers on different ports of 127.0.0.1 are different origins (RFC 6454 §4: scheme, host and
 * port). The second one records every request; it must get none, on every surface, since the
 * clients underneath would carry X-APIKEY there: got strips only host, cookie, cookie2,
 * authorization and proxy-authorization on a cross-origin redirect ("Use hooks.beforeRedirect
 * for app-specific sensitive headers", got 16's `followRedirect` docs, source/core/options.ts),
 * node-fetch 2.7 (zapier-platform-core's client) only authorization, www-authenticate, cookie
 * and cookie2, and Make follows GET and non-GET redirects by default (`followRedirects`,
 * `followAllRedirects`: "default": true in Make's schema, sources.json).
 *
 * What every surface must do (each status, cross-origin and same-origin, on a read, a write and
 * the key check) is the hostile battery's (test/surfaces/battery.ts, run by
 * hostile-battery.test.ts); here are the facts of one surface each: the typed client's error
 * fields, the CLI's exit code, every Make component and the directives that matter, every n8n
 * operation and its polling trigger.
 */

const KEY = 'faults-redirect-key-5e0c93b1d7';
const TEAMS = [{ id: 'team_platform', name: 'Platform' }];
const STATUSES = [301, 302, 303, 307, 308] as const;

const servers = serversClosedAfterEach();

/** The other origin, which answers as the API would: whatever reaches it is a leak. */
async function elsewhere(): Promise<FaultServer> {
  const server = await faultServer([json(200, TEAMS)]);
  servers.push(server);
  return server;
}

/** The service, answering every request with a redirect to `target` (path and query: where a key could hide). */
async function redirecting(status: number, target: string, then: Behaviour[] = []): Promise<FaultServer> {
  const server = await faultServer([{ kind: 'answer', status, body: '', headers: { location: target } }, ...then]);
  servers.push(server);
  return server;
}

const hostOf = (url: string) => new URL(url).host;
const stolenPath = (other: FaultServer) => `${other.url}/collect?token=stolen-${KEY.slice(0, 8)}`;

describe('typed client (got): a redirect to another origin is not followed', () => {
  type Client = ReturnType<typeof createNodeClient>;
  const calls: [string, (client: Client) => Promise<unknown>][] = [
    ['read', (client) => client.listTeams()],
    ['create', (client) => client.createOrUpdateIncident({ title: 'Disk full' })],
  ];

  // What every surface must do with these redirects is the hostile battery's (test/surfaces/battery.ts):
  // here, what only the typed client has, the error object's own fields.
  it.each(STATUSES.flatMap((status) => calls.map(([what, call]) => [status, what, call] as const)))(
    '%i on a %s: a RedirectError, not retryable, not done, with the status and the target host',
    async (status, _what, call) => {
      const other = await elsewhere();
      const service = await redirecting(status, stolenPath(other));
      const client = createNodeClient({ apiKey: KEY, baseUrl: service.url, backoffMs: 10, timeoutMs: 2_000 });
      const result = await rejection<PagerlyError>(call(client));
      expect(result).toBeInstanceOf(RedirectError);
      expect(result).toMatchObject({ code: 'redirect', retryable: false, mayHaveApplied: false, status, targetHost: hostOf(other.url) });
    },
  );

  it('the same host on another scheme or port is another origin', async () => {
    const other = await elsewhere();
    const service = await redirecting(308, other.url.replace('127.0.0.1', 'localhost'));
    const error = await rejection<RedirectError>(createNodeClient({ apiKey: KEY, baseUrl: service.url }).listTeams());
    expect(error).toBeInstanceOf(RedirectError);
    expect(other.arrivals).toEqual([]);
  });

  it('a service that redirects to itself for ever ends in a RedirectError, not a loop', async () => {
    const service = await faultServer([{ kind: 'answer', status: 302, body: '', headers: { location: '/again' } }]);
    servers.push(service);
    const error = await rejection<RedirectError>(createNodeClient({ apiKey: KEY, baseUrl: service.url }).listTeams());
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.message).toMatch(/again and again/);
    expect(service.arrivals.length).toBeLessThanOrEqual(6);
  });

  it.each([KEY, 'Faults-Redirect-KEY-5E0C93B1D7'])('a host name made of the key (%s) is not repeated in the message, in any case', async (key) => {
    const service = await redirecting(302, `http://${key}.example/`);
    const error = await rejection<RedirectError>(createNodeClient({ apiKey: key, baseUrl: service.url }).listTeams());
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.message.toLowerCase()).not.toContain(key.toLowerCase());
    expect(error.targetHost).toBe('[redacted].example');
    expect(error.message).toContain('[redacted].example');
  });

  it('a 3xx the clients do not follow (300) ends in a RedirectError too, and nothing more is sent', async () => {
    const service = await redirecting(300, '/choices');
    const error = await rejection<RedirectError>(createNodeClient({ apiKey: KEY, baseUrl: service.url }).listTeams());
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.message).toContain('HTTP 300');
    expect(service.arrivals).toHaveLength(1);
  });
});

describe('command line: a redirect to another origin', () => {
  it('exits 78 (configuration) naming the status and host; the other host gets nothing', async () => {
    const other = await elsewhere();
    const service = await redirecting(307, stolenPath(other));
    const r = await run(['--base-url', service.url, 'incident', 'create', '--title', 'Disk full', '--json'], { env: { PAGERLY_API_KEY: KEY } });
    expect(r.code).toBe(78);
    expect(r.stdout).toBe('');
    expect(r.errorJson().error).toMatchObject({ code: 'redirect', retryable: false, exitCode: 78, status: 307 });
    expect(r.errorJson().error.message).toContain(hostOf(other.url));
    expect(r.stderr).not.toContain(KEY);
    expect(other.arrivals).toEqual([]);
  });
});

describe('Make app (the generated app through the runner): redirects are not followed', () => {
  const app = appFromFiles(generateMakeApp());
  const requesting = makeComponents.filter((component) => component.endpoint !== undefined);

  it.each(requesting.map((component) => [component.name, component] as const))(
    '%s: a 302 elsewhere is not followed; the other host gets nothing',
    async (name, component) => {
      const other = await elsewhere();
      const service = await redirecting(302, stolenPath(other));
      const runner = makeRunner(app, { origin: { from: DEFAULT_BASE_URL, to: service.url }, timeoutMs: 2_000 });
      const outcome = await component.run(runner, KEY).then(
        (value) => ({ value, error: undefined }),
        (error: unknown) => ({ value: undefined, error }),
      );
      if (name === 'module makeApiCall') {
        // "Make an API call" gives any answer below 400 as its result: the 302 itself, for the user to see.
        expect(outcome.value).toEqual([expect.objectContaining({ statusCode: 302, headers: expect.objectContaining({ location: stolenPath(other) }) })]);
      } else {
        expect(outcome.error).toBeInstanceOf(MakeError);
      }
      expect(other.arrivals).toEqual([]);
      expect(service.arrivals).toHaveLength(1);
    },
  );

  // Without the directives the runner follows, as Make does by default: the proof that they matter.
  it('the same request without followRedirects: false would have carried the key to the other host', async () => {
    const other = await elsewhere();
    const service = await redirecting(302, stolenPath(other));
    const files = generateMakeApp();
    const baseFile = [...files.keys()].find((name) => name.endsWith('base.iml.json'))!;
    const { followRedirects: _follow, followAllRedirects: _followAll, ...base } = files.get(baseFile) as Record<string, unknown>;
    expect(_follow).toBe(false);
    expect(_followAll).toBe(false);
    const following = makeRunner(appFromFiles(new Map([...files, [baseFile, base]])), {
      origin: { from: DEFAULT_BASE_URL, to: service.url },
      timeoutMs: 2_000,
    });
    await following.rpc('listTeams', { connection: { apiKey: KEY } }).catch(() => undefined);
    expect(other.arrivals.map((a) => a.apiKey)).toEqual([KEY]);
  });
});

/**
 * The n8n node's runtime on a context whose request helper behaves as n8n's does (it follows
 * redirects, X-APIKEY kept, unless `disableFollowRedirect`); `npm run n8n:e2e` runs the same
 * battery in the real engine.
 */
describe('n8n node (its runtime on n8n-style request helpers): a redirect to another origin', () => {
  const actions = nodeOperations.map((operation) => [operation.id, operation] as const);

  it.each(STATUSES.flatMap((status) => actions.map(([key, operation]) => [status, key, operation] as const)))(
    '%i, %s: the item fails with the redirect named; the other host gets nothing',
    async (status, _key, operation) => {
      const other = await elsewhere();
      const service = await redirecting(status, stolenPath(other));
      const { context } = executeContext(credentialFor(KEY, service.url), [parametersFor(operation, 'Platform')]);
      const error = await rejection<Error & { description?: string }>(executePagerly(context, classes));
      const said = `${error.message} ${error.description ?? ''}`;
      expect(said).toContain(hostOf(other.url));
      expect(said).not.toContain(KEY);
      expect(said).not.toContain('stolen');
      expect(other.arrivals).toEqual([]);
    },
  );

  it.each(STATUSES)('%i on the team dropdown and on a poll of the trigger (scheduled and manual): refused, the other host gets nothing', async (status) => {
    const other = await elsewhere();
    const service = await redirecting(status, stolenPath(other));
    const { context: execute } = executeContext(credentialFor(KEY, service.url), [{}]);
    const dropdown = await rejection<Error>(searchTeams(execute, classes));
    expect(dropdown.message).toContain(hostOf(other.url));
    for (const mode of ['trigger', 'manual'] as const) {
      const { context: poller, staticData } = pollContext(credentialFor(KEY, service.url), { teamname: '' }, { mode });
      const polling = await rejection<Error>(pollOnCallChanges(poller, classes));
      const said = `${polling.message} ${(polling as { description?: string }).description ?? ''}`;
      expect(said).toContain(hostOf(other.url));
      expect(said).not.toContain(KEY);
      expect(staticData).toEqual({});
    }
    expect(other.arrivals).toEqual([]);
  });
});
