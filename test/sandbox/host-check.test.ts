import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { allowedHostList, hostRefusal, parseHost } from '../../sandbox/http/allowed-hosts.ts';
import { isLoopbackAddress, isLoopbackName } from '../../shared/http/loopback.ts';
import { createSandbox } from '../../sandbox/index.ts';
import { killAll, start } from '../shutdown/support.ts';
import { demoKeys, HOUR, startReceiver, startSandbox, until, type Running } from './support.ts';

// DNS rebinding: a web page on a domain its owner points at 127.0.0.1 is, to the browser, of
// the same origin as the sandbox, and reads every answer. The defence is the Host header,
// which still names the page's domain. The anchors, both after their DNS-rebinding advisories:
// - Vite's `server.allowedHosts` (https://vite.dev/config/server-options#server-allowedhosts;
//   GHSA-vg6x-rcgg-rjx6, Vite 6.0.9), checked by host-validation-middleware: `localhost`,
//   `*.localhost` and IP addresses pass, an IPv6 address only in brackets, `.example.com`
//   allows a name and every name under it, `true` allows any Host ("not recommended").
// - webpack-dev-server's `allowedHosts` (https://webpack.js.org/configuration/dev-server/#devserverallowedhosts;
//   its fix in 2.4.3 / 1.16.4, webpack/webpack-dev-server#887): the same names and `.` rule,
//   'all' to allow any Host, and a request without Host refused (`isValidHost`).
// Where they differ (a missing Host: Vite lets it through, as no browser omits it), the
// sandbox refuses, as webpack-dev-server and the MCP SDK behind `pagerly mcp --http` do. Unlike
// both, a loopback name must carry the sandbox's own port, and IP addresses other than
// loopback pass only as the address the request reached.

const REBINDING = 'evil.example';
const EXTRA = 'host.docker.internal';

interface RawAnswer {
  status: number;
  body: string;
}

/**
 * One request on its own connection, written byte for byte (fetch will not send another Host,
 * nor none). An event stream is read up to its headers, then dropped.
 */
interface RawRequest {
  method?: string;
  path?: string;
  /** Sent as given; none at all when undefined. */
  host?: string | undefined;
  version?: string;
  headers?: Record<string, string>;
  body?: string;
}

function raw(port: number, { method = 'GET', path = '/', host, version = '1.1', headers = {}, body = '' }: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const finish = () => {
      socket.destroy();
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (/content-type: text\/event-stream/i.test(text)) finish();
    });
    socket.on('end', finish);
    socket.on('error', reject);
    const lines = [
      `${method} ${path} HTTP/${version}`,
      ...(host === undefined ? [] : [`Host: ${host}`]),
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
      'Connection: close',
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

/** Every route the app registered, with a concrete path (`:id` filled in), one per method. */
const routesOf = (running: Running) => running.sandbox.app.routeList.map(({ method, url }) => ({ method, path: url.replace(/:[a-z]+/gi, 'sub_0001') }));
const portOf = (running: Running) => Number(new URL(running.url).port);

describe('the Host rule, on every route of the sandbox', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startSandbox({ allowedHosts: [EXTRA, '.tunnel.test'] });
  });
  afterAll(() => s.sandbox.close());

  it('walks a route list that holds the service under both bases, the console and its feed, and the controls', () => {
    const paths = new Set(routesOf(s).map(({ path }) => path));
    for (const path of [
      '/o/zapier/allteams',
      '/pagerly/o/zapier/allteams',
      '/o/zapier/subscribe',
      '/pagerly/o/make/subscribe',
      '/',
      '/_sandbox/console/events',
      '/_sandbox/clock',
      '/_sandbox/faults',
    ]) {
      expect(paths).toContain(path);
    }
    expect(routesOf(s).length).toBeGreaterThan(40);
  });

  it('refuses a rebinding Host and a loopback name with another port on every route, every method, a 404 and OPTIONS', async () => {
    const port = portOf(s);
    const cases = [
      ...routesOf(s),
      ...[...new Set(routesOf(s).map(({ path }) => path))].map((path) => ({ method: 'OPTIONS', path })),
      { method: 'GET', path: '/no/such/route' },
      { method: 'POST', path: '/pagerly/o/no-such-endpoint' },
      { method: 'PROPFIND', path: '/o/incident' },
      { method: 'PATCH', path: '/_sandbox/clock' },
    ];
    for (const { method, path } of cases) {
      // `127.0.0.1` alone is port 80, not the sandbox's.
      for (const host of [`${REBINDING}:${port}`, REBINDING, `localhost:${port + 1}`, '127.0.0.1']) {
        const answer = await raw(port, { method, path, host, headers: { 'x-apikey': demoKeys.acmeAdmin } });
        expect({ method, path, host, status: answer.status }).toEqual({ method, path, host, status: 403 });
        if (method !== 'HEAD') expect(answer.body).toContain('--allowed-hosts');
      }
    }
  });

  it("answers the loopback names with the sandbox's port, and the allowed hosts on any port, on every route", async () => {
    const port = portOf(s);
    const hosts = [
      `localhost:${port}`,
      `LocalHost:${port}`,
      `127.0.0.1:${port}`,
      `127.4.5.6:${port}`,
      `[::1]:${port}`,
      `[0:0:0:0:0:0:0:1]:${port}`,
      `[::ffff:127.0.0.1]:${port}`,
      `console.localhost:${port}`,
      `${EXTRA}:${port}`,
      `${EXTRA}:8080`,
      EXTRA,
      `tunnel.test:443`,
      `abc123.tunnel.test`,
    ];
    for (const { method, path } of routesOf(s)) {
      for (const host of hosts) {
        const { status } = await raw(port, { method, path, host });
        expect({ method, path, host, refused: status === 403 || status === 0 }).toEqual({ method, path, host, refused: false });
      }
    }
  });

  it('says which name to allow, and reads IPv6, a missing Host and other shapes as Vite and webpack-dev-server do', async () => {
    const port = portOf(s);
    const refused = async (host: string | undefined, extra: { version?: string; path?: string } = {}) =>
      (await raw(port, { path: '/o/zapier/allteams', host, headers: { 'x-apikey': demoKeys.acmeAdmin }, ...extra })).status === 403;

    const { body } = await raw(port, { path: '/o/zapier/allteams', host: `${REBINDING}:${port}` });
    expect(JSON.parse(body)).toEqual([{ Error: expect.stringContaining(`--allowed-hosts ${REBINDING} (createSandbox: allowedHosts: ['${REBINDING}'])`) }]);
    expect(body).toContain(`localhost:${port}, 127.0.0.1:${port} or [::1]:${port}`);
    const wrongPort = await raw(port, { path: '/', host: `localhost:${port + 1}` });
    expect(wrongPort.body).toContain(`names port ${port + 1}, not this sandbox's`);

    // HTTP/1.0 may leave Host out; the sandbox does not guess (HTTP/1.1 without it is Node's 400).
    expect(await refused(undefined, { version: '1.0' })).toBe(true);
    expect((await raw(port, { path: '/', version: '1.0' })).body).toContain('no Host header');
    expect(await refused(`localhost:${port}`, { version: '1.0' })).toBe(false);
    // IPv6 only in brackets; any spelling of ::1 is ::1; a zone or another address is not loopback.
    expect(await refused(`::1:${port}`)).toBe(true);
    expect(await refused(`[::2]:${port}`)).toBe(true);
    expect(await refused(`[fe80::1%25lo]:${port}`)).toBe(true);
    expect(await refused(`[0::1]:${port}`)).toBe(false);
    // Names that only look like this machine's.
    for (const host of [
      'localhost.',
      '127.0.0.1.evil.example',
      'localhost.evil.example',
      'localhost.tunnel.test.evil.example',
      '127.1',
      '2130706433',
      'evil.example@localhost',
    ]) {
      expect({ host, refused: await refused(`${host}:${port}`) }).toEqual({ host, refused: true });
    }
    // An absolute-form target names the host instead of the header (RFC 9112, 3.2.2).
    expect(await refused(`localhost:${port}`, { path: `http://${REBINDING}:${port}/o/zapier/allteams` })).toBe(true);
    expect(await refused(REBINDING, { path: `http://localhost:${port}/o/zapier/allteams` })).toBe(false);
    // A target the router cannot even read is refused before it is described.
    expect(await refused(REBINDING, { path: '/%E0%A4%A' })).toBe(true);
    expect((await raw(port, { path: '/%E0%A4%A', host: `localhost:${port}` })).status).toBe(400);
  });
});

describe('a refused request changes nothing', () => {
  it('registers no hook through a foreign Host, and the hooks it could have registered are never called', async () => {
    const receiver = await startReceiver();
    const s = await startSandbox();
    try {
      const port = portOf(s);
      const body = JSON.stringify({ url: receiver.url, teamname: 'Platform' });
      const json = { 'x-apikey': demoKeys.acmeAdmin, 'content-type': 'application/json' };
      for (const path of ['/o/zapier/subscribe', '/pagerly/o/zapier/subscribe', '/o/make/subscribe', '/pagerly/o/make/subscribe']) {
        const answer = await raw(port, { method: 'POST', path, host: `${REBINDING}:${port}`, headers: json, body });
        expect({ path, status: answer.status }).toEqual({ path, status: 403 });
      }
      expect(s.sandbox.world.subscriptions.size).toBe(0);
      await s.sandbox.clock.advance(HOUR);
      await s.sandbox.deliveries.idle();
      expect(receiver.received).toEqual([]);

      // The same request by the sandbox's own name registers it: the refusal above was the Host's doing.
      expect((await raw(port, { method: 'POST', path: '/o/zapier/subscribe', host: `127.0.0.1:${port}`, headers: json, body })).status).toBe(201);
      expect(s.sandbox.world.subscriptions.size).toBe(1);
    } finally {
      await s.sandbox.close();
      await receiver.close();
    }
  });

  it('uses up no injected fault, rate limit or clock change', async () => {
    const s = await startSandbox({ rateLimit: { limit: 2, windowMs: 60_000 } });
    try {
      const port = portOf(s);
      const now = s.sandbox.clock.now().toISOString();
      s.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 503, body: '{"Error":"down"}' });
      const teams = (host: string) => raw(port, { path: '/o/zapier/allteams', host, headers: { 'x-apikey': demoKeys.acmeAdmin } });
      for (let i = 0; i < 5; i++) expect((await teams(`${REBINDING}:${port}`)).status).toBe(403);
      const clock = await raw(port, {
        method: 'POST',
        path: '/_sandbox/clock',
        host: REBINDING,
        headers: { 'content-type': 'application/json' },
        body: '{"advanceMs":3600000}',
      });
      expect(clock.status).toBe(403);
      expect(s.sandbox.clock.now().toISOString()).toBe(now);
      expect((await teams(`localhost:${port}`)).status).toBe(503);
      expect((await teams(`localhost:${port}`)).status).toBe(200);
      expect((await teams(`localhost:${port}`)).status).toBe(429);
    } finally {
      await s.sandbox.close();
    }
  });
});

describe('the allowedHosts option', () => {
  it('names no extra host by default, and true answers any Host, as console.allowRemote did', async () => {
    const closed = await startSandbox();
    const open = await startSandbox({ allowedHosts: true });
    const remote = await startSandbox({ console: { allowRemote: true } });
    const both = await startSandbox({ console: { allowRemote: true }, allowedHosts: [EXTRA] });
    try {
      const status = async (running: Running, host: string) =>
        (await raw(portOf(running), { path: '/o/zapier/allteams', host, headers: { 'x-apikey': demoKeys.acmeAdmin } })).status;
      expect(await status(closed, `${EXTRA}:${portOf(closed)}`)).toBe(403);
      expect(await status(open, `${REBINDING}:${portOf(open)}`)).toBe(200);
      expect(await status(remote, `${REBINDING}:${portOf(remote)}`)).toBe(200);
      expect(await status(both, `${REBINDING}:${portOf(both)}`)).toBe(403);
      expect(await status(both, EXTRA)).toBe(200);
    } finally {
      await Promise.all([closed, open, remote, both].map((running) => running.sandbox.close()));
    }
  });

  it('refuses an entry it could not match, naming it', async () => {
    await expect(createSandbox({ allowedHosts: [`${EXTRA}:4010`] })).rejects.toThrow(`name the host without a port (${EXTRA})`);
    await expect(createSandbox({ allowedHosts: ['*.example.test'] })).rejects.toThrow('write ".example.test"');
    await expect(createSandbox({ allowedHosts: [''] })).rejects.toThrow('an entry is empty');
    await expect(createSandbox({ allowedHosts: ['http://example.test/'] })).rejects.toThrow('is not a host name or address');
    await expect(createSandbox({ allowedHosts: ['fe80::1%eth0'] })).rejects.toThrow('is not a host name or address');
    await expect(createSandbox({ allowedHosts: 'all' as unknown as true })).rejects.toThrow('give a list of host names, or true');
    expect(allowedHostList([' Sandbox.Test ', '.Example.TEST', '::1', '[0:0::2]', '10.0.0.5'])).toEqual([
      'sandbox.test',
      '.example.test',
      '[::1]',
      '[::2]',
      '10.0.0.5',
    ]);
  });
});

describe('the pieces of the rule', () => {
  it('parses a Host as uri-host [":" port] and knows the loopback names', () => {
    expect(parseHost('LOCALHOST:4010')).toEqual({ name: 'localhost', port: 4010 });
    expect(parseHost('[0:0::1]')).toEqual({ name: '[::1]', port: 80 });
    expect(parseHost('example.test:')).toEqual({ name: 'example.test', port: 80 });
    for (const bad of ['::1', '[::1', '[zz::1]:80', 'a b', 'host:99999', 'user@host', 'host/path', ''])
      expect({ bad, parsed: parseHost(bad) }).toEqual({ bad, parsed: undefined });
    expect(['127.0.0.1', '127.4.5.6', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:0:0:1'].every(isLoopbackAddress)).toBe(true);
    expect(['10.0.0.2', '::ffff:10.0.0.2', '::2', '128.0.0.1', '', undefined].some(isLoopbackAddress)).toBe(false);
    expect(['localhost', 'console.localhost', '127.0.0.1', '[::1]', 'LOCALHOST', 'Console.LocalHost'].every(isLoopbackName)).toBe(true);
    expect(['localhost.evil.example', '127.0.0.1.evil.example', 'localhost.', '[::2]'].some(isLoopbackName)).toBe(false);
  });

  it('takes the address the request reached, as an address cannot be rebound', () => {
    const arrival = { localAddress: '::ffff:192.0.2.2', localPort: 4010 };
    expect(hostRefusal({ ...arrival, host: '192.0.2.2:4010' }, [])).toBeUndefined();
    expect(hostRefusal({ ...arrival, host: '192.0.2.3:4010' }, [])).toContain('is not a name of this sandbox');
    expect(hostRefusal({ ...arrival, host: '192.0.2.2:8080' }, [])).toContain('is not a name of this sandbox');
    expect(hostRefusal({ localAddress: 'fd00::2', localPort: 4010, host: '[fd00:0::2]:4010' }, [])).toBeUndefined();
    // A link-local address with its zone: no Host can name it, and nothing breaks on it.
    expect(hostRefusal({ localAddress: 'fe80::1%eth0', localPort: 4010, host: '[fe80::1]:4010' }, [])).toContain('is not a name of this sandbox');
    expect(isLoopbackAddress('fe80::1%eth0')).toBe(false);
    expect(hostRefusal({ ...arrival, host: `${REBINDING}:4010` }, true)).toBeUndefined();
  });
});

describe('bound to every address', () => {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

  (external ? it : it.skip)(
    `answers its own address and the loopback names, and still refuses a rebinding Host (reached at ${external ?? 'no address here'})`,
    async () => {
      const sandbox = await createSandbox();
      try {
        await sandbox.listen({ host: '0.0.0.0', port: 0 });
        const port = (sandbox.app.server.address() as { port: number }).port;
        const at = (address: string, host: string) =>
          new Promise<number>((resolve, reject) => {
            const socket = connect(port, address);
            let text = '';
            socket.setEncoding('utf8');
            socket.on('data', (chunk: string) => (text += chunk));
            socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
            socket.on('error', reject);
            socket.write(`GET /o/zapier/allteams HTTP/1.1\r\nHost: ${host}\r\nX-APIKEY: ${demoKeys.acmeAdmin}\r\nConnection: close\r\n\r\n`);
          });
        expect(await at(external!, `${external}:${port}`)).toBe(200);
        expect(await at(external!, `localhost:${port}`)).toBe(200);
        expect(await at(external!, `${REBINDING}:${port}`)).toBe(403);
        expect(await at('127.0.0.1', `${external}:${port}`)).toBe(403);
      } finally {
        await sandbox.close();
      }
    },
  );
});

describe('npm run sandbox --port 0 --allowed-hosts', () => {
  afterEach(killAll);

  /** `node sandbox/cli.ts …args` in a process group of its own, which killAll ends on every path. */
  const sandboxProcess = (args: string[]) => start(process.execPath, ['sandbox/cli.ts', ...args], { PORT: '' });

  it('checks Host on the port it was given, says which hosts it answers, and refuses a bad name at once', async () => {
    const sandbox = sandboxProcess(['--port', '0', '--fixed-clock', '--allowed-hosts', `${EXTRA},.tunnel.test`]);
    await until(() => /API base URL:\s+http:\/\/127\.0\.0\.1:\d+/.test(sandbox.stdout()), 'the start-up banner', 15_000);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(sandbox.stdout())?.[1]);
    expect(sandbox.stdout()).toContain(`Answers Host:        localhost, 127.0.0.1 or [::1] at port ${port}; ${EXTRA}, .tunnel.test at any port`);
    const teams = (host: string) => raw(port, { path: '/pagerly/o/zapier/allteams', host, headers: { 'x-apikey': demoKeys.acmeAdmin } });
    expect((await teams(`${REBINDING}:${port}`)).status).toBe(403);
    expect((await teams(`localhost:${port}`)).status).toBe(200);
    expect((await teams(`${EXTRA}:${port}`)).status).toBe(200);
    expect((await teams('a.tunnel.test')).status).toBe(200);

    const bad = sandboxProcess(['--port', '0', '--allowed-hosts', `${EXTRA}:4010`]);
    const { code } = await bad.exited;
    expect(code).toBe(1);
    expect(bad.stderr()).toContain(`--allowed-hosts: "${EXTRA}:4010": name the host without a port`);
  });

  it('with all or --public-console answers any Host, and warns that this is unsafe', async () => {
    for (const args of [['--allowed-hosts', 'all'], ['--public-console']]) {
      const sandbox = sandboxProcess(['--port', '0', '--fixed-clock', ...args]);
      await until(() => /API base URL:\s+http:\/\/127\.0\.0\.1:\d+/.test(sandbox.stdout()), 'the start-up banner', 15_000);
      const port = Number(/127\.0\.0\.1:(\d+)/.exec(sandbox.stdout())?.[1]);
      expect(sandbox.stderr()).toContain('Warning: the sandbox answers any Host');
      expect((await raw(port, { path: '/_sandbox/clock', host: `${REBINDING}:${port}` })).status).toBe(200);
    }
  });
});
