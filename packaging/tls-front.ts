import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * A certificate for 127.0.0.1 and localhost that no system trusts (self-signed, valid to 2126),
 * made for loopback tests only: a client trusts it only when told to (NODE_EXTRA_CA_CERTS).
 */
export const LOOPBACK_CERT = fileURLToPath(new URL('./fixtures/loopback-cert.pem', import.meta.url));
const LOOPBACK_KEY = fileURLToPath(new URL('./fixtures/loopback-key.pem', import.meta.url));

export interface TlsFront {
  /** https://127.0.0.1:PORT, answering what the plain-HTTP service behind it answers. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * HTTPS on loopback in front of a plain-HTTP service (the sandbox), with the certificate above.
 * It sends the service's own Host, as nginx's `proxy_pass` does by default: the sandbox answers
 * only a Host that names it.
 */
export async function tlsFront(target: string): Promise<TlsFront> {
  const server: Server = createServer({ cert: readFileSync(LOOPBACK_CERT), key: readFileSync(LOOPBACK_KEY) }, (req, res) => {
    const headers = { ...req.headers, host: new URL(target).host };
    const upstream = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
