import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { redact } from '../shared/redact.ts';
import type { Drain } from '../shared/shutdown/drain.ts';
import { drainHttpServer } from '../shared/shutdown/http-server.ts';
import { createPagerlyMcpServer, type PagerlyMcpOptions } from './server.ts';

/**
 * `pagerly mcp --http`: the same server over MCP's Streamable HTTP transport, on the SDK's own
 * handler (`createMcpHandler`: the 2026-07-28 revision, and 2025-era clients through its
 * stateless fallback). Stateless: every request gets a fresh server from the factory, so no
 * session lives in this process and several instances can sit behind one load balancer.
 */

/** The one path served. */
export const MCP_PATH = '/mcp';
/** The header a client sends its key in, with `--key-from-header`: the service's own header name. */
export const KEY_HEADER = 'x-apikey';
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 8791;
/** Tool arguments are a few fields: a megabyte is far more than any call needs, and bounds what one request can make us hold. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpServeOptions {
  readonly host: string;
  readonly port: number;
  /** Each request brings its own key in `X-APIKEY`; the environment's key is then never used. */
  readonly keyFromHeader: boolean;
  /** Host names (no port) a request's `Host` may name, besides the loopback names. */
  readonly allowedHosts?: readonly string[];
  /** Origin host names a browser's request may come from, besides the loopback names. */
  readonly allowedOrigins?: readonly string[];
  /** Where a failure the handler met is reported (stderr); the text is redacted first. */
  readonly onError?: (message: string) => void;
  /**
   * How it stops (shared/shutdown/drain.ts): once a stop is asked, no new request is taken and
   * each call in flight answers before its connection closes. Without it, `close` cuts them.
   */
  readonly drain?: Drain | undefined;
}

/** A wildcard bind (0.0.0.0, ::) is no name a client puts in `Host`. */
const isWildcard = (host: string) => ['0.0.0.0', '::', '[::]', ''].includes(host);

/** The `Host` names accepted: the loopback names, the bound host when it is a name a client can use, and those given. */
export function allowedHostsFor(options: Pick<HttpServeOptions, 'host' | 'allowedHosts'>): string[] {
  const own = isWildcard(options.host) ? [] : [isIP(options.host) === 6 ? `[${options.host}]` : options.host];
  return [...new Set([...localhostAllowedHostnames(), ...own, ...(options.allowedHosts ?? [])].map((host) => host.toLowerCase()))];
}

/** The request's key, for the factory and for redacting what is logged while it is served. */
const current = new AsyncLocalStorage<{ readonly key: string | undefined }>();

/**
 * The web-standard face: `Host`, then `Origin`, are checked before anything else (a page a
 * browser loaded from elsewhere, or a DNS name rebound to this machine, gets 403 and reaches no
 * tool); only `/mcp` is served. Each server made for a request takes its key from the
 * environment, or with `keyFromHeader` from that request's `X-APIKEY` only.
 */
export function mcpFetchHandler(server: PagerlyMcpOptions, http: Omit<HttpServeOptions, 'port'>) {
  const hosts = allowedHostsFor(http);
  const origins = [...new Set([...localhostAllowedOrigins(), ...(http.allowedOrigins ?? [])].map((host) => host.toLowerCase()))];
  const keyOf = (request: Request | undefined) => (http.keyFromHeader ? request?.headers.get(KEY_HEADER)?.trim() || undefined : server.apiKey);
  const handler = createMcpHandler(
    (ctx) => createPagerlyMcpServer({ ...server, apiKey: keyOf(ctx.requestInfo), keySource: http.keyFromHeader ? 'header' : 'environment', era: ctx.era }),
    {
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror: (error) => http.onError?.(redact(error.message, [server.apiKey, current.getStore()?.key])),
    },
  );
  const fetch = (request: Request): Promise<Response> => {
    const rejected = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, origins);
    if (rejected) return Promise.resolve(rejected);
    if (new URL(request.url).pathname !== MCP_PATH)
      return Promise.resolve(Response.json({ error: `Not found: the MCP endpoint is ${MCP_PATH}` }, { status: 404 }));
    return current.run({ key: keyOf(request) }, () => handler.fetch(request));
  };
  return { fetch, close: () => handler.close() };
}

/** A Node request as a web-standard one: the path only (never a host taken from the request), every header, the body streamed. */
function webRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  let path = '/';
  try {
    path = new URL(req.url ?? '/', 'http://localhost').pathname;
  } catch {
    // An unreadable target is served as `/`: a 404.
  }
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  return new Request(new URL(path, 'http://localhost'), { method, headers, body, signal, duplex: 'half' } as RequestInit);
}

/**
 * A `subscriptions/listen` request (MCP 2026-07-28): a stream of change notifications that
 * lasts as long as its client wants. The revision requires the method in the `Mcp-Method`
 * header, which the SDK checks against the body, so the header alone tells.
 */
const isSubscriptionStream = (req: IncomingMessage) => req.method === 'POST' && req.headers['mcp-method'] === 'subscriptions/listen';

async function send(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, [...response.headers].flat());
  if (!response.body) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  res.on('close', () => body.destroy());
  body.pipe(res);
}

export interface HttpServer {
  /** `http://host:port/mcp`, with the port actually bound (`--port 0` picks a free one). */
  readonly url: string;
  /** Stops serving: once the drain (if any) was asked to stop, after its calls have answered; else at once. */
  close(): Promise<void>;
}

/** Listens on `host:port` and serves `/mcp` until closed. */
export async function serveHttp(server: PagerlyMcpOptions, http: HttpServeOptions): Promise<HttpServer> {
  const { fetch, close } = mcpFetchHandler(server, http);
  const subscriptions = new Set<AbortController>();
  const listener = createServer((req, res) => {
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    if (isSubscriptionStream(req)) {
      subscriptions.add(aborted);
      res.on('close', () => subscriptions.delete(aborted));
    }
    fetch(webRequest(req, aborted.signal))
      .then((response) => send(response, res))
      .catch((error: unknown) => {
        http.onError?.(redact(error instanceof Error ? error.message : String(error), [server.apiKey, req.headers[KEY_HEADER]?.toString()]));
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal error"}');
        else res.destroy();
      });
  });
  // A subscription stream never ends on its own: it is ended when the stop begins (its client
  // sees the stream end and listens again elsewhere), so it cannot hold the drain to its deadline.
  const drained =
    http.drain &&
    drainHttpServer(listener, http.drain, () => {
      for (const subscription of subscriptions) subscription.abort();
    });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(http.port, http.host, () => resolve());
  });
  const address = listener.address();
  const port = address !== null && typeof address === 'object' ? address.port : http.port;
  const shownHost = isIP(http.host) === 6 ? `[${http.host}]` : http.host;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    async close() {
      if (drained && http.drain?.stopping.aborted) {
        await drained.closed;
        await close();
        return;
      }
      await close();
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
