import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RefusingProxy {
  /** The proxy's URL with credentials in it (`http://user:password@127.0.0.1:port`), as a user would set it. */
  readonly url: string;
  /** The password in `url`: it must show nowhere. */
  readonly password: string;
  /** What reached it: a plain request's absolute URL, or a CONNECT's host:port. */
  readonly seen: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy on loopback that refuses everything: a plain request is answered 407 with
 * `Proxy-Authenticate`, as a corporate proxy answers wrong or missing credentials, and a CONNECT
 * is answered `connectStatus` (407 by default; 403 for a host it blocks, 502 for one it cannot
 * reach). Nothing goes further: a request it refused never reached the service.
 */
export async function refusingProxy(connectStatus = 407): Promise<RefusingProxy> {
  const seen: string[] = [];
  const password = 'proxy-pa55word-must-not-show';
  const server: Server = createServer((request, response) => {
    seen.push(request.url ?? '');
    request.resume();
    response.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"', 'content-type': 'text/html' }).end('<h1>Proxy Authentication Required</h1>');
  });
  server.on('connect', (request, socket) => {
    seen.push(request.url ?? '');
    const reason = connectStatus === 407 ? 'Proxy Authentication Required' : 'Refused';
    const challenge = connectStatus === 407 ? 'Proxy-Authenticate: Basic realm="corp"\r\n' : '';
    socket.on('error', () => undefined);
    socket.end(`HTTP/1.1 ${connectStatus} ${reason}\r\n${challenge}Content-Length: 0\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://ops:${password}@127.0.0.1:${port}`,
    password,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
