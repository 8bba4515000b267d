import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message a workflow posted to the chat's incoming webhook. */
export interface ChatMessage {
  /** The path it was posted to: each template gets its own (`/hooks/<job>`). */
  readonly path: string;
  readonly contentType: string;
  /** The `text` of Slack's incoming-webhook body, `{"text": "…"}`. */
  readonly text: string;
  readonly body: unknown;
}

export interface ChatReceiver {
  /** The incoming-webhook URL for one template, e.g. `http://127.0.0.1:PORT/hooks/morning-on-call-digest`. */
  urlFor(job: string): string;
  messagesOf(job: string): ChatMessage[];
  close(): Promise<void>;
}

/**
 * Stands in for a chat's incoming webhook (Slack's: a JSON body with `text`, answered `ok`),
 * on loopback: it keeps every message, so a test reads what each template posted.
 */
export async function startChatReceiver(): Promise<ChatReceiver> {
  const messages: ChatMessage[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      const text = body && typeof body === 'object' && typeof (body as { text?: unknown }).text === 'string' ? (body as { text: string }).text : '';
      messages.push({ path: req.url ?? '', contentType: String(req.headers['content-type'] ?? ''), text, body });
      // Slack answers a good post with 200 "ok", a body without text with 400 "no_text".
      if (req.method !== 'POST' || !text) res.writeHead(400, { 'content-type': 'text/plain' }).end('no_text');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  const base = await new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  const pathOf = (job: string) => `/hooks/${job}`;
  return {
    urlFor: (job) => `${base}${pathOf(job)}`,
    messagesOf: (job) => messages.filter((message) => message.path === pathOf(job)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
