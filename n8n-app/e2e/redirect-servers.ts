import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_KEY_HEADER } from '../../shared/http/types.ts';

/** A request that reached the other origin: a leak if it carries the key in any header. */
export interface Capture {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface RedirectServers {
  /** The other origin (another port of 127.0.0.1, so another origin: RFC 6454 §4). */
  readonly elsewhere: string;
  /** Every request that reached the other origin. */
  readonly captured: readonly Capture[];
  /** A base URL that answers every request with that redirect status, to the other origin (path and query kept). */
  crossOrigin(status: number): string;
  /** A base URL that answers with a 307 to the same origin, where the sandbox's answer comes. */
  readonly sameOrigin: string;
  /** A base URL whose every answer is `200 text/plain "API Key is valid"`: a key check the spec gives no shape. */
  readonly plainText: string;
  close(): Promise<void>;
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

/**
 * The hostile side of the n8n end to end, on loopback: a service whose base URL redirects
 * elsewhere, the other origin that records what reaches it, and a service that redirects to
 * itself before handing the request to the sandbox (a same-origin redirect, which is followed).
 */
export async function startRedirectServers(sandboxUrl: string): Promise<RedirectServers> {
  const captured: Capture[] = [];
  const other = createServer((req, res) => {
    captured.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  const elsewhere = await listen(other);

  // `/s307/pagerly/o/...` answers 307 to `<elsewhere>/collect/pagerly/o/...`;
  // `/moved/...` answers 307 to `/...` on itself, which is passed on to the sandbox.
  const service = createServer((req, res) => {
    const url = req.url ?? '/';
    const redirect = /^\/s(\d{3})(\/.*)$/.exec(url);
    if (redirect) {
      res.writeHead(Number(redirect[1]), { location: `${elsewhere}/collect${redirect[2]}` }).end();
      return;
    }
    if (url.startsWith('/plain/')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('API Key is valid');
      return;
    }
    if (url.startsWith('/moved/')) {
      res.writeHead(307, { location: url.slice('/moved'.length) }).end();
      return;
    }
    const target = new URL(url, sandboxUrl);
    const upstream = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  const base = await listen(service);

  return {
    elsewhere,
    captured,
    crossOrigin: (status) => `${base}/s${status}`,
    sameOrigin: `${base}/moved`,
    plainText: `${base}/plain`,
    close: async () => {
      await Promise.all([other, service].map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/** Whether any captured request carried the key: the header, or the key anywhere in a header or URL. */
export function leaks(captured: readonly Capture[], key: string): Capture[] {
  return captured.filter(
    (capture) =>
      capture.headers[API_KEY_HEADER.toLowerCase()] !== undefined ||
      capture.url.includes(key) ||
      Object.values(capture.headers).some((value) => String(value).includes(key)),
  );
}
