import { afterEach, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { tools } from '../../mcp-server/server.ts';
import { mayHaveAppliedAdvice } from '../../shared/http/failure.ts';
import { operationSummaries } from '../../shared/operations/summaries.ts';
import { type Child, exitWithin, killAll, pagerly, SLOW_INCIDENT_ID, type SlowService, sleep, slowService, waitFor } from './support.ts';

/**
 * `pagerly mcp` stopped as a rolling deploy stops it: a `create_incident` whose answer takes
 * 3 s, SIGTERM 0.8 s into it. The call answers with its incident id, the process exits 0, and
 * nothing new is taken meanwhile. Real processes, the SDK's own client, a loopback service.
 */

const KEY = 'shutdown-test-key';
const SLOW_MS = 3_000;
let service: SlowService | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await killAll();
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await service?.close();
  service = undefined;
});

async function startServer(args: readonly string[] = [], delayMs = SLOW_MS): Promise<{ child: Child; url: string }> {
  service = await slowService(delayMs);
  const child = pagerly(['mcp', '--http', '--port', '0', '--enable-write-tools', ...args], { PAGERLY_API_KEY: KEY, PAGERLY_BASE_URL: service.url });
  await waitFor(() => /on http:\/\/\S+\/mcp /.test(child.stderr()), 'the start-up note');
  return { child, url: /on (http:\/\/\S+\/mcp) /.exec(child.stderr())![1]! };
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'rolling-deploy', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

const createIncident = (client: Client) => client.callTool({ name: 'create_incident', arguments: { title: 'Deploy failed' } });
const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0] ?? { text: '' }).text;

/** A request on a connection of its own (no agent: never one kept alive from before). */
function freshPost(url: string): Promise<{ status: number; retryAfter: string | undefined } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
  });
}

const createTool = tools.find((tool) => tool.name === 'create_incident')!;
const MAY_HAVE_BEEN_DONE = mayHaveAppliedAdvice('createOrUpdateIncident', operationSummaries(createTool.operation).createOrUpdateIncident);

describe('pagerly mcp --http on SIGTERM', () => {
  it('a create in flight answers with its incident id; nothing new is taken; exit 0 well within 15 s', async () => {
    const { child, url } = await startServer();
    const client = await connect(url);
    const call = createIncident(client);
    await waitFor(() => service!.received.includes('POST /o/incident'), 'the create to reach the service');
    await sleep(800);
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    await waitFor(() => child.stderr().includes('SIGTERM: closing the server; 1 in flight finishes first'), 'the drain to start', 5_000);

    // A new connection after the signal: refused, or told to come back later.
    const late = await freshPost(url);
    if ('error' in late) expect(late.error).toBe('ECONNREFUSED');
    else expect(late).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });

    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: SLOW_INCIDENT_ID });
    expect(service!.answered).toContain('POST /o/incident');
    const exit = await exitWithin(child, signalled, 15_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    // It waited for the answer (3 s from the start, 2.2 s after the signal), and no longer than that.
    expect(exit.ms).toBeGreaterThan(1_500);
    expect(child.stderr()).toContain('pagerly mcp: stopped.');
    // One create reached the service: none was sent again.
    expect(service!.received.filter((line) => line === 'POST /o/incident')).toHaveLength(1);
  }, 40_000);

  it('a connection kept alive from before the signal gets 503 with Retry-After, or is closed: never served', async () => {
    const { child, url } = await startServer();
    const client = await connect(url);
    const call = createIncident(client);
    await waitFor(() => service!.received.includes('POST /o/incident'), 'the create to reach the service');
    child.process.kill('SIGTERM');
    await waitFor(() => child.stderr().includes('SIGTERM: closing'), 'the drain to start', 5_000);
    // The SDK client's own connection pool, as a host would reuse it.
    const late = await client.listTools().then(
      () => 'served',
      (error: Error) => error.message,
    );
    expect(late).not.toBe('served');
    expect(late).toMatch(/503|ECONNREFUSED|fetch failed|other side closed|terminated/i);
    expect((await call).structuredContent).toMatchObject({ id: SLOW_INCIDENT_ID });
    expect((await exitWithin(child, Date.now(), 15_000)).code).toBe(0);
  }, 40_000);

  it('a create still running at --shutdown-timeout is answered "may have been done", in the words of a time-out', async () => {
    // The service would answer after 10 s: only the 1 s deadline can end it sooner.
    const { child, url } = await startServer(['--shutdown-timeout', '1'], 10_000);
    const client = await connect(url);
    const call = createIncident(client);
    await waitFor(() => service!.received.includes('POST /o/incident'), 'the create to reach the service');
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('stopped (its shutdown deadline passed) before the service answered');
    expect(text(result)).toContain(MAY_HAVE_BEEN_DONE);
    const exit = await exitWithin(child, signalled, 15_000);
    expect(exit.code).toBe(0);
    // The deadline, not the service's 3 s, ended it.
    expect(exit.ms).toBeLessThan(8_000);
    expect(child.stderr()).toContain('cutting 1 still in flight');
  }, 40_000);

  it('a second SIGTERM ends it at once (143)', async () => {
    const { child, url } = await startServer();
    const client = await connect(url);
    const call = createIncident(client).catch((error: Error) => error);
    await waitFor(() => service!.received.includes('POST /o/incident'), 'the create to reach the service');
    child.process.kill('SIGTERM');
    await waitFor(() => child.stderr().includes('SIGTERM: closing'), 'the drain to start', 5_000);
    // A second request, not a copy of the first (SAME_REQUEST_MS).
    await sleep(400);
    const again = Date.now();
    child.process.kill('SIGTERM');
    const exit = await exitWithin(child, again, 5_000);
    expect(exit.code).toBe(143);
    expect(exit.ms).toBeLessThan(2_500);
    expect(child.stderr()).toContain('SIGTERM again: stopping at once.');
    await call;
  }, 40_000);
});

describe('pagerly mcp --http, a subscription stream open', () => {
  it('a subscriptions/listen stream (2026-07-28) is ended when the stop begins, not held to the deadline', async () => {
    const { child, url } = await startServer();
    const client = new Client({ name: 'listener', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    const exit = await exitWithin(child, signalled, 15_000);
    expect(exit.code).toBe(0);
    // Well before the 25 s deadline the stream would otherwise have held it to.
    expect(exit.ms).toBeLessThan(5_000);
    // Ended by the server, and not as a graceful goodbye: the client knows to listen again elsewhere.
    expect(await subscription.closed).toBe('remote');
  }, 40_000);
});

describe('pagerly mcp on stdio', () => {
  /** A create sent as a host sends it, then `stop` 0.8 s after it reached the service; its answer, and how the process ended. */
  async function stdioCreate(stop: (child: Child) => void) {
    service = await slowService(SLOW_MS);
    const child = pagerly(['mcp', '--enable-write-tools'], { PAGERLY_API_KEY: KEY, PAGERLY_BASE_URL: service.url }, 'pipe');
    const send = (message: object) => child.process.stdin!.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await waitFor(() => child.stdout().includes('"id":1'), 'the initialize answer');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_incident', arguments: { title: 'Deploy failed' } } });
    await waitFor(() => service!.received.includes('POST /o/incident'), 'the create to reach the service');
    await sleep(800);
    const stopped = Date.now();
    stop(child);
    const exit = await exitWithin(child, stopped, 15_000);
    const answer = child
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id?: number; result?: { isError?: boolean; structuredContent?: { id?: string } } })
      .find((message) => message.id === 2);
    return { exit, answer, stderr: child.stderr() };
  }

  it('stdin closed mid-call: the call in flight answers first, then exit 0', async () => {
    const { exit, answer, stderr } = await stdioCreate((child) => child.process.stdin!.end());
    expect(exit.code).toBe(0);
    expect(answer?.result?.isError).toBeFalsy();
    expect(answer?.result?.structuredContent?.id).toBe(SLOW_INCIDENT_ID);
    expect(stderr).toContain('stdin closed: closing the server; 1 in flight finishes first');
  }, 40_000);

  it('a call the host cancelled is not waited for: stdin closed after the cancel, exit 0 well before the deadline', async () => {
    const { exit, answer } = await stdioCreate((child) => {
      child.process.stdin!.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user gave up' } })}\n`,
      );
      child.process.stdin!.end();
    });
    expect(exit.code).toBe(0);
    // The SDK answers nothing to a cancelled request: still counted as in flight, the drain never
    // settled, and the process ran out of work with its stop unfinished (Node's exit 13), not 0.
    expect(exit.ms).toBeLessThan(10_000);
    expect(answer).toBeUndefined();
  }, 40_000);

  it('SIGTERM, then stdin closed (as a host may do both): one stop, not two; the call answers, exit 0', async () => {
    const { exit, answer, stderr } = await stdioCreate((child) => {
      child.process.kill('SIGTERM');
      setTimeout(() => child.process.stdin!.end(), 200);
    });
    expect(exit.code).toBe(0);
    expect(answer?.result?.structuredContent?.id).toBe(SLOW_INCIDENT_ID);
    expect(stderr).toContain('SIGTERM: closing the server; 1 in flight finishes first');
    expect(stderr).not.toContain('stopping at once');
  }, 40_000);
});
