import http from 'node:http';
import { loopbackServer } from '../support/loopback-server.ts';

export interface SlowProxy {
  url: string;
  /** Requests that reached the proxy, and those whose answer it has finished sending back. */
  readonly started: number;
  readonly answered: number;
  close(): Promise<void>;
}

/**
 * A loopback proxy that holds every request `delayMs` before forwarding it to `target` (the
 * sandbox): a slowed service, so that a test can press Ctrl-C while requests are in flight.
 */
export async function slowProxy(target: string, delayMs: number): Promise<SlowProxy> {
  const upstream = new URL(target);
  let started = 0;
  let answered = 0;
  const server = await loopbackServer((request, response) => {
    started += 1;
    const body: Buffer[] = [];
    request.on('data', (chunk: Buffer) => body.push(chunk));
    request.on('end', () => {
      setTimeout(() => {
        const forwarded = http.request(
          // The sandbox's own Host, as nginx's proxy_pass sends by default: it answers only a Host that names it.
          { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: { ...request.headers, host: upstream.host } },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
            answer.on('end', () => (answered += 1));
          },
        );
        forwarded.on('error', () => request.socket.destroy());
        forwarded.end(Buffer.concat(body));
      }, delayMs);
    });
  });
  return {
    url: server.url,
    get started() {
      return started;
    },
    get answered() {
      return answered;
    },
    close: server.close,
  };
}
