/** n8n's REST API (`/rest`, what its editor calls), signed in as the instance owner. */
export class N8nRest {
  private cookie = '';
  private readonly base: string;

  constructor(base: string) {
    this.base = base;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await sent(`${this.base}/rest${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'browser-id': 'pagerly-e2e', ...(this.cookie ? { cookie: this.cookie } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /rest${path} answered ${response.status}: ${text.slice(0, 500)}`);
    const json = text ? (JSON.parse(text) as { data?: T }) : {};
    return (json.data ?? json) as T;
  }

  /** A file n8n serves to its signed-in editor, e.g. `/types/nodes.json`. */
  async file<T>(path: string): Promise<T> {
    const response = await sent(`${this.base}${path}`, { headers: { 'browser-id': 'pagerly-e2e', cookie: this.cookie } });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  /** A fresh instance has no user: the first call creates the owner and signs in. */
  async setUpOwner(): Promise<void> {
    await this.request('POST', '/owner/setup', { email: 'owner@pagerly-e2e.example', firstName: 'E2E', lastName: 'Owner', password: 'Pagerly-e2e-1' });
  }
}

/**
 * fetch, sent once more when the connection it reused was closed under it: n8n closes an idle
 * keep-alive connection after 5 s, and on a busy machine the close can cross the next request
 * on the wire (ECONNRESET, or undici's socket error), before n8n read any of it.
 */
async function sent(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')
      throw new Error(`${init.method ?? 'GET'} ${new URL(url).pathname}: ${(error as Error).message} (${code ?? 'no code'})`);
    return await fetch(url, init);
  }
}
