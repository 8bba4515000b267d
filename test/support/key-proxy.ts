import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  url: string;
  /** The `X-APIKEY` header as it arrived (undefined when none was sent). */
  apiKey: string | undefined;
  /** True when the proxy broke the connection instead of forwarding. */
  broken: boolean;
}

export interface KeyProxy {
  url: string;
  readonly requests: ProxiedRequest[];
  /** The next `count` requests get their connection destroyed before any answer: a network failure. */
  breakNext(count?: number): void;
  /** The requests that arrived since `mark` (an index into `requests`). */
  since(mark: number): ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A receiving loopback proxy in front of a server (the sandbox): it notes the `X-APIKEY` of
 * every request that reaches it and forwards the request unchanged but for its Host, which
 * names the server (as nginx's `proxy_pass` does by default, and as the sandbox asks), so a
 * secret test can show the key was sent where it belongs, and nowhere else it looked.
 */
export async function startKeyProxy(target: string): Promise<KeyProxy> {
  const requests: ProxiedRequest[] = [];
  const upstream = new URL(target);
  let toBreak = 0;
  const server = http.createServer((request, response) => {
    const header = request.headers['x-apikey'];
    const entry: ProxiedRequest = {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      apiKey: Array.isArray(header) ? header.join(', ') : header,
      broken: false,
    };
    requests.push(entry);
    if (toBreak > 0) {
      toBreak -= 1;
      entry.broken = true;
      request.socket.destroy();
      return;
    }
    const forwarded = http.request(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: { ...request.headers, host: upstream.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => request.socket.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    breakNext(count = 1) {
      toBreak = count;
    },
    since: (mark) => requests.slice(mark),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
