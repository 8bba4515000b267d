import type { Behaviour } from '../support/fault-server.ts';

/*
 * The hostile echoes of the secret tests: keys full of characters that change between
 * encodings, each piece of them in each encoding, and the places a service could put one in
 * its answer. Shared by secrets-echo.test.ts (every echo in every place, on each surface) and
 * the hostile battery (test/surfaces/battery.ts), so both meet the same echoes.
 */

/**
 * Keys with every character that changes between forms: `"` and `\` (JSON), `%`, `+`, `/`,
 * `?`, `&`, `=`, `#`, `:`, `;`, `,` (URL). The second adds `!'()~` and `*`, which only
 * form-encoding escapes. Printable ASCII without spaces: other keys are refused before any request.
 */
export const KEYS = ['kq7Z"ab\\cd%41ef+gh/ij?kl&mn=op#qr:st;uv,wx-9f3a', 'kq7Z!x(y)z~w\'v*u"t\\s%2Br+q/p?o&n=m#l-5be2'] as const;

export type Form = 'raw' | 'json' | 'url' | 'form';
const encode: Record<Form, (text: string) => string> = {
  raw: (text) => text,
  json: (text) => JSON.stringify(text).slice(1, -1),
  url: encodeURIComponent,
  form: (text) => new URLSearchParams([['k', text]]).toString().slice(2),
};

export interface Echo {
  key: string;
  name: string;
  form: Form;
  text: string;
}

/** The key, its first and last 8 and 13 characters, in each form (the same text once). */
export function echoesOf(key: string): Echo[] {
  const pieces: [string, string][] = [
    ['whole key', key],
    ['first 8', key.slice(0, 8)],
    ['first 13', key.slice(0, 13)],
    ['last 8', key.slice(-8)],
    ['last 13', key.slice(-13)],
  ];
  const seen = new Set<string>();
  return pieces.flatMap(([piece, text]) =>
    (Object.keys(encode) as Form[]).flatMap((form) => {
      const encoded = encode[form](text);
      if (seen.has(encoded)) return [];
      seen.add(encoded);
      return [{ key, name: `${piece}, ${form}`, form, text: encoded }];
    }),
  );
}

export interface Placement {
  name: string;
  /** True when the echo lands in a text the service wrote (a message or body), not in a header. */
  inText: boolean;
  answer(echo: string, self: string): Behaviour;
}

const errorJson = (status: number, text: string, headers: Record<string, string> = {}): Behaviour => ({
  kind: 'answer',
  status,
  body: JSON.stringify([{ Error: text }]),
  headers: { 'content-type': 'application/json', ...headers },
});
const plain = (status: number, contentType: string, body: string, headers: Record<string, string> = {}): Behaviour => ({
  kind: 'answer',
  status,
  body,
  headers: { 'content-type': contentType, ...headers },
});
/** A body of `length` characters in which the echo starts a few characters before 120 and ends after it. */
const straddling = (echo: string) => `${'Upstream said: '.padEnd(120 - Math.ceil(echo.length / 2), '.')}${echo} and nothing more. `.padEnd(200, '.');

export const placements: Placement[] = [
  ...[400, 403, 404, 500].map(
    (status): Placement => ({ name: `JSON error text of a ${status}`, inText: true, answer: (echo) => errorJson(status, `API Key ${echo} is not valid`) }),
  ),
  { name: 'JSON error text of a 500, across character 120', inText: true, answer: (echo) => errorJson(500, straddling(echo)) },
  { name: 'HTML body of a 502', inText: true, answer: (echo) => plain(502, 'text/html', `<html><body>Bad gateway for X-APIKEY ${echo}</body></html>`) },
  {
    name: 'HTML body of a 200',
    inText: true,
    answer: (echo) => plain(200, 'text/html', `<html><body>Maintenance. Your key ${echo} will work again soon.</body></html>`),
  },
  { name: 'text body of a 500, across character 120', inText: true, answer: (echo) => plain(500, 'text/plain', straddling(echo)) },
  { name: 'HTML body of a 200, across character 120', inText: true, answer: (echo) => plain(200, 'text/html', straddling(echo)) },
  { name: 'Retry-After of a 429', inText: false, answer: (echo) => errorJson(429, 'Rate limit exceeded', { 'retry-after': echo }) },
  { name: 'Content-Type of a 200 that is not JSON', inText: false, answer: (echo) => plain(200, `text/x-${echo}`, 'ok') },
  {
    name: 'Location of a redirect elsewhere',
    inText: false,
    answer: (echo) => plain(302, 'text/plain', '', { location: `http://evil.example/${echo}?k=${echo}` }),
  },
  {
    name: 'Location of a redirect to the same server',
    inText: false,
    answer: (echo, self) => plain(307, 'text/plain', '', { location: `${self}/again/${echo}?k=${echo}` }),
  },
];
