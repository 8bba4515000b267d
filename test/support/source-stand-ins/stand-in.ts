import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Pem } from '../tls-certificates.ts';

/**
 * What the three vendors' stand-ins share: a loopback server (HTTP, or HTTPS with a given
 * certificate) that notes every request as it arrived, checks the key in the vendor's own
 * header, and lets a test put faults in front of the vendor's routes: a 429, a 5xx, a body cut
 * off, a redirect, anything a fault function answers.
 */

export interface SeenRequest {
  readonly method: string;
  /** The URL as the server read it, on the stand-in's origin. */
  readonly url: URL;
  readonly headers: http.IncomingHttpHeaders;
}

/** An answer of the vendor: a JSON body and headers. */
export interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON, or a text sent as it is. */
  readonly body: unknown;
}

/**
 * Answers a request in place of the vendor (returns true), or lets it through (false). `index`
 * counts the requests that reached the stand-in, from 0.
 */
export type Fault = (seen: SeenRequest, response: http.ServerResponse, index: number) => boolean;

export interface Vendor {
  /** Whether the request carries the key, in the vendor's header form. */
  authorized(seen: SeenRequest): boolean;
  /** The vendor's answer to a request without the key (which may depend on what was sent instead). */
  unauthorized: Answer | ((seen: SeenRequest) => Answer);
  /** The vendor's answer to an authorized request; `origin` is the stand-in's, for absolute links. */
  route(seen: SeenRequest, origin: string): Answer;
}

export interface StandIn {
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Faults tried in order before the vendor answers; a test may add and remove them. */
  readonly faults: Fault[];
  close(): Promise<void>;
}

export function send(response: http.ServerResponse, answer: Answer): void {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
  response.end(text);
}

export async function startStandIn(vendor: Vendor, options: { tls?: Pem; faults?: Fault[] } = {}): Promise<StandIn> {
  const requests: SeenRequest[] = [];
  const faults: Fault[] = [...(options.faults ?? [])];
  let origin = '';
  const listener: http.RequestListener = (request, response) => {
    request.resume();
    request.on('end', () => {
      const seen: SeenRequest = { method: request.method ?? 'GET', url: new URL(request.url ?? '/', origin), headers: request.headers };
      const index = requests.length;
      requests.push(seen);
      for (const fault of faults) if (fault(seen, response, index)) return;
      if (!vendor.authorized(seen)) return send(response, typeof vendor.unauthorized === 'function' ? vendor.unauthorized(seen) : vendor.unauthorized);
      send(response, vendor.route(seen, origin));
    });
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, listener) : http.createServer(listener);
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    url: origin,
    requests,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fault for the requests `when` picks, the first `times` of them (every one when times is Infinity). */
export function fault(
  when: (seen: SeenRequest, index: number) => boolean,
  times: number,
  answer: (response: http.ServerResponse, seen: SeenRequest) => void,
): Fault {
  let left = times;
  return (seen, response, index) => {
    if (left <= 0 || !when(seen, index)) return false;
    left -= 1;
    answer(response, seen);
    return true;
  };
}

/** An answer with a Content-Length its body never reaches: the connection is cut after half of it. */
export function cutOff(response: http.ServerResponse, body: string): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body) + 1000) });
  response.write(body.slice(0, Math.floor(body.length / 2)));
  setTimeout(() => response.socket?.destroy(), 10);
}

/** Pages of a list: items `offset` to `offset + limit`. */
export const pageOf = <T>(items: readonly T[], offset: number, limit: number): T[] => items.slice(offset, offset + limit);

/** A whole number of a query parameter, or the default. */
export function numberParam(url: URL, name: string, fallback: number): number {
  const value = url.searchParams.get(name);
  if (value === null || !/^-?\d+$/.test(value)) return fallback;
  return Number(value);
}
