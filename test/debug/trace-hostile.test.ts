import { describe, expect, it } from '@jest/globals';
import type { Hop } from '../../shared/http/follow-redirects.ts';
import { tracedHop } from '../../shared/http/trace.ts';
import type { HttpRequest, HttpResponse } from '../../shared/http/types.ts';

// A hostile or careless server's answer, fed straight to the trace: what reaches stderr (or a
// runner's log) must hold no piece of the key, stay bounded, and forge no line of its own.

const KEY = 'pgr_live/Qz+Wk=Mid-Piece-Of-Key-0123456789';
const request = {
  method: 'GET',
  url: 'https://api.example/x',
  query: {},
  headers: { 'X-APIKEY': KEY },
  endpoint: 'x',
  idempotent: true,
} as unknown as HttpRequest;

async function traceOf(headers: Record<string, string | string[]>, url = 'https://api.example/x'): Promise<string> {
  const entries: string[] = [];
  const hop = { url, method: 'GET', first: true } as unknown as Hop;
  await tracedHop(
    (entry) => entries.push(entry),
    request,
    hop,
    async () => ({ status: 302, url, headers, body: '' }) as HttpResponse,
    {},
  );
  return entries.join('\n');
}

/** The text with every percent-escape decoded, as a person reading it would. */
function decoded(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

describe('the trace against a hostile answer', () => {
  it('shows no piece of the key percent-encoded in lower case or only in part', async () => {
    const lower = encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (pair) => pair.toLowerCase());
    const partly = KEY.replace('/', '%2F');
    const allEscaped = Array.from(new TextEncoder().encode(KEY), (byte) => `%${byte.toString(16)}`).join('');
    const twice = encodeURIComponent(lower);
    const text = await traceOf(
      { location: `https://api.example/next?k=${lower}`, 'x-partly': partly, 'x-all': allEscaped, 'x-twice': twice },
      `https://api.example/x?key=${lower}`,
    );
    expect(text).toMatch(/^< location: /m);
    expect(decoded(decoded(text))).not.toContain('Mid-Piece');
    expect(decoded(decoded(text))).not.toContain('Qz+Wk=');
  });

  it('shows no user name or password a URL carries', async () => {
    const text = await traceOf({ location: 'https://ann:s3cret-pw@api.example/next' }, 'https://bob:hunter22@api.example/x');
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('s3cret-pw');
    expect(text).toMatch(/^\* GET https:\/\/\[redacted\]@api\.example\/x 302/m);
  });

  it('stays bounded for 10,000 headers and a 1 MB one', async () => {
    const headers: Record<string, string> = { 'x-huge': 'a'.repeat(1_000_000) };
    for (let at = 0; at < 10_000; at++) headers[`x-h${at}`] = 'v';
    const text = await traceOf(headers);
    expect(text.length).toBeLessThan(64_000);
    expect(text.split('\n').length).toBeLessThan(200);
    expect(text).toMatch(/^< x-huge: a+… \(1000000 characters\)$/m);
    expect(text).toMatch(/^< … 99\d\d more headers not shown$/m);
  });

  it('forges no line, no terminal escape, no workflow command and no reordered text', async () => {
    const text = await traceOf({
      'x-forge': 'ok\n* GET https://evil 200 1 ms 1 bytes\r\n::add-mask::x\u2028::error::owned',
      'x-ansi': '\u001b[2J\u001b]0;title\u0007',
      'x-bidi': 'safe\u202egnp.exe',
    });
    for (const line of text.split('\n')) expect(line.trimStart()).toMatch(/^[*<>] /);
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u202e');
    expect(text).toContain('\\u202e');
    expect(text.split('\n').filter((line) => line.startsWith('* '))).toHaveLength(1);
  });
});
