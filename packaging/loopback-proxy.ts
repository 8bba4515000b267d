import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface LoopbackProxy {
  readonly url: string;
  /** Every request it carried: the absolute URL (plain HTTP) or the host:port of a CONNECT. */
  readonly seen: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy on loopback that counts what goes through it: plain HTTP requests in absolute
 * form, and CONNECT tunnels for HTTPS. Enough to prove a client uses HTTP_PROXY or HTTPS_PROXY,
 * and that NO_PROXY keeps a host away from it.
 */
export async function loopbackProxy(): Promise<LoopbackProxy> {
  const seen: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    seen.push(req.url ?? '');
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, socket, head) => {
    seen.push(req.url ?? '');
    const [host = '', port = '443'] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
