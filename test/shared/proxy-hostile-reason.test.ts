import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ProxyError } from '../../shared/errors.ts';
import type { HttpRequest } from '../../shared/http/types.ts';
import { fetchTransport } from '../../shared/transports/fetch-transport.ts';

/**
 * A hostile proxy writes its own reason phrase and headers: none of its words reach the
 * ProxyError, whose message is made only of the status number, the variable and its host.
 */
// No control character: HTTP's parser refuses one in a status line, before any of this code.
const EVIL = 'Evil ::error::owned http://attacker.example';
let proxy: Server;
const sockets = new Set<Socket>();
beforeAll(async () => {
  proxy = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (data) => {
      const status = data.toString().startsWith('CONNECT') ? 403 : 407;
      socket.end(`HTTP/1.1 ${status} ${EVIL}\r\nProxy-Authenticate: Basic realm="${EVIL}"\r\nContent-Length: 0\r\n\r\n`);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

function request(url: string): HttpRequest {
  return {
    endpoint: 'listTeams',
    method: 'GET',
    url,
    query: {},
    headers: { 'X-APIKEY': 'pgr_hostile-reason-0123456789' },
    body: undefined,
    idempotent: true,
  } as unknown as HttpRequest;
}

describe('a hostile proxy', () => {
  it.each([
    ['HTTP_PROXY', 'http://api.pagerly.invalid/teams'],
    ['HTTPS_PROXY', 'https://api.pagerly.invalid/teams'],
  ])('puts none of its words in the ProxyError (%s)', async (variable, url) => {
    const { port } = proxy.address() as AddressInfo;
    const transport = fetchTransport({ proxyEnv: { [variable]: `http://user:pw-secret@127.0.0.1:${port}` }, retries: 0 });
    const error = await transport.send(request(url)).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ProxyError);
    const message = (error as Error).message;
    expect(message).toContain(`(from ${variable})`);
    for (const word of ['Evil', '::error', 'attacker', 'pw-secret']) expect(message).not.toContain(word);
  });
});
