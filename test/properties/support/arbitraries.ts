import fc from 'fast-check';

/**
 * Generators of bad input shared by the property tests: text of every kind (unicode, emoji,
 * control characters, lone surrogates, very long), values of the wrong type, and plausible
 * but bad values for each field the operations take (e-mails, phone numbers, URLs, teams…).
 */

// ---------------------------------------------------------------------------------------------
// Text

const controlChar = fc
  .oneof(fc.integer({ min: 0x00, max: 0x1f }), fc.constantFrom(0x7f, 0x85, 0xa0, 0x2028, 0x2029, 0x200b, 0xfeff, 0x202e))
  .map((code) => String.fromCharCode(code));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const emoji = fc.constantFrom('💥', '🔥', '👩‍💻', '🏳️‍🌈', '🇯🇵', '❤️', '🧑🏽‍🚒', 'é', 'ß', 'İ', 'Ⓟ', '中文', 'עברית', 'العربية', '\u0301');

/** Short text of any kind: printable, emoji, any code point, control characters, surrogate halves. */
export const shortText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), controlChar, loneSurrogate, emoji), { maxLength: 12 }).map((parts) => parts.join('')),
  fc.constantFrom(
    '',
    ' ',
    '   ',
    '\t',
    '\n',
    '\r\n',
    '\u0000',
    'null',
    'undefined',
    'true',
    '0',
    '-1',
    'NaN',
    '[]',
    '{}',
    '[object Object]',
    '{{1}}',
    '%',
    '%%',
    '%zz',
    '..',
    '/',
    '?',
    '#',
    '&',
    '"',
    "'",
    '\\',
    '<script>',
  ),
);

/** Text of 10 to 100 kB, made by repeating a random chunk (cheap to generate, any character). */
export const longText: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 8 })),
    fc.integer({ min: 10_000, max: 100_000 }),
  )
  .map(([chunk, length]) => chunk.repeat(Math.ceil(length / chunk.length)).slice(0, length));

/** Any text; `long` sets how often it is 10–100 kB long (0 for never). */
export const anyText = (long = 1): fc.Arbitrary<string> =>
  long > 0 ? fc.oneof({ weight: 12, arbitrary: shortText }, { weight: long, arbitrary: longText }) : shortText;

// ---------------------------------------------------------------------------------------------
// Values of every type

/** A JSON value (what a service or a platform may put anywhere). */
export const jsonValue = (maxDepth = 3): fc.Arbitrary<unknown> => fc.jsonValue({ maxDepth });

/** Not a string: numbers (NaN and infinities too), booleans, null, arrays, objects. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(shortText, fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(shortText, fc.integer()), { maxKeys: 3, noNullPrototype: true }),
  fc.constant([]),
  fc.constant({}),
);

// ---------------------------------------------------------------------------------------------
// Plausible but bad (and some good) values per field

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

const badEmails = [
  '',
  ' ',
  'alex',
  'alex@',
  '@example.com',
  'alex@example',
  'alex@@example.com',
  'alex@example..com',
  'alex @example.com',
  'alex@exa mple.com',
  '"alex"@example.com',
  'alex@[127.0.0.1]',
  'álex@example.com',
  'alex@exämple.com',
  'alex@example.com\n',
  'alex@example.com,bob@example.com',
  'alex@localhost',
  'alex.@example.com',
  '.alex@example.com',
  '💥@example.com',
  'alex@example.c',
  'mailto:alex@example.com',
  '<alex@example.com>',
  'Alex <alex@example.com>',
  'alex@example.com.',
  'a\u0000@example.com',
];
const goodishEmails = ['alex@example.com', ' ALEX@Example.COM ', 'alex+tag@example.com', 'new.hire@acme.example', 'katherine@acme.example'];

export const email: fc.Arbitrary<string> = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom(...badEmails, ...goodishEmails),
  // A good address with one character put somewhere it should not be.
  fc.tuple(fc.emailAddress(), fc.nat(), fc.oneof(controlChar, emoji, fc.constantFrom(' ', '@', '.', ',', ';', '"', '..'))).map(([address, at, extra]) => {
    const i = at % (address.length + 1);
    return address.slice(0, i) + extra + address.slice(i);
  }),
  fc.tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }), fc.domain()).map(([local, domain]) => `${local}@${domain}`),
  fc.integer({ min: 250, max: 400 }).map((n) => `${'a'.repeat(n)}@example.com`),
);

const badPhones = [
  '',
  ' ',
  '+',
  '+1',
  '+0123456789',
  '14155550123',
  '++14155550123',
  '+1415555012345678',
  '+١٤١٥٥٥٥٠١٢٣',
  '+1 415 555 0123 ext 5',
  'tel:+14155550123',
  '+1/415/555/0123',
  '+1\u00a0415\u00a0555\u00a00123',
  '+1\t415',
  '(415) 555-0123',
  '+44 (0) 20 7946 0958',
  '+1-800-FLOWERS',
  '+14155550123\n',
  '0044 20 7946 0958',
  '+-1',
  '+1e10',
  '+1 415 555 0123;+1 415 555 0124',
];
const separators = fc.constantFrom(' ', '-', '(', ')', '.', '  ', ' - ');

export const phone: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...badPhones),
  // E.164 numbers, some too short or too long, with the separators people type.
  fc
    .tuple(fc.constantFrom('+', '', '00', '+0'), fc.integer({ min: 1, max: 9 }), digits(3, 17), fc.array(fc.tuple(fc.nat(), separators), { maxLength: 4 }))
    .map(([plus, first, rest, cuts]) => {
      let number = `${plus}${first}${rest}`;
      for (const [at, separator] of cuts) {
        const i = 1 + (at % number.length);
        number = number.slice(0, i) + separator + number.slice(i);
      }
      return number;
    }),
  digits(0, 20),
);

const badUrls = [
  '',
  ' ',
  'ftp://example.com/hook',
  'javascript:alert(1)',
  'http://',
  'http:///hook',
  'https://exa mple.com/hook',
  '//example.com/hook',
  'example.com/hook',
  'http://[::1',
  'http://localhost:99999/hook',
  'HTTP://EXAMPLE.COM/HOOK',
  'http://例え.jp/hook',
  'https://user:pass@example.com/hook',
  'data:text/plain,hook',
  'http://a?',
  'http://a#',
  ' https://hooks.zapier.com/hooks/standard/1/abc ',
  'https://hooks.zapier.com/hooks/standard/1/abc\n',
  'http://127.0.0.1:1/hook',
  'https://',
  'file:///etc/passwd',
  'http://%',
  'mailto:alex@example.com',
];

export const url: fc.Arbitrary<string> = fc.oneof(
  fc.webUrl(),
  fc.constantFrom(...badUrls),
  fc.webUrl().map((u) => `${u} `),
  fc.webUrl().map((u) => u.replace(/^https?/, 'hxxp')),
);

const teamNames = [
  'Platform',
  ' platform ',
  'PAYMENTS',
  'Mobile',
  'Operations',
  'No Such Team',
  '',
  ' ',
  'Team/With/Slashes',
  'Team?x=1&y=2',
  'Team#1',
  '../../etc',
  'Payments\u0000',
  'Ⓟlatform',
  '🔥 Firefighters',
  '%2e%2e',
  'null',
  '[object Object]',
  'Plat\u200bform',
];
export const teamname: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...teamNames),
  shortText,
  fc.integer({ min: 190, max: 260 }).map((n) => 'T'.repeat(n)),
);

export const severity = fc.oneof(fc.constantFrom('', ' ', 'P1', 'p1', 'P0', 'P6', 'CRITICAL', 'Sev 1', 'x'.repeat(33), ' P2 ', '💥'), shortText);
export const status = fc.oneof(fc.constantFrom('triggered', 'acknowledged', 'resolved', 'Resolved', 'RESOLVED', ' resolved', 'closed', 'open', ''), shortText);
export const role = fc.oneof(fc.constantFrom('admin', 'user', 'owner', 'Admin', 'ADMIN', ' user', 'superuser', 'org admin', ''), shortText);
export const id = fc.oneof(
  fc.constantFrom('', ' ', 'inc_0001', 'inc_does_not_exist', 'sub_0001', '%', '?x=1', '#', 'a/b', '../x', 'inc 1', '💥', '\u0000'),
  shortText,
  fc.integer({ min: 150, max: 250 }).map((n) => 'i'.repeat(n)),
);

/** Field name → plausible values of that field. Titles, names and descriptions take any text. */
const plausible: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  email,
  phone,
  url,
  teamname,
  severity,
  status,
  role,
  id,
  title: fc.oneof(
    anyText(1),
    fc.integer({ min: 250, max: 260 }).map((n) => 'x'.repeat(n)),
  ),
  name: fc.oneof(anyText(1), fc.constantFrom('Alex Morgan', 'Grace Hopper', 'x'.repeat(201))),
  description: fc.oneof(
    anyText(2),
    fc.integer({ min: 9_990, max: 10_010 }).map((n) => 'd'.repeat(n)),
  ),
};

/** Values each field's schema takes (so that every endpoint also sees input it accepts). */
const localPart = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_+-'), minLength: 1, maxLength: 12 });
const valid: Readonly<Record<string, fc.Arbitrary<string>>> = {
  email: fc.oneof(
    fc.tuple(localPart, fc.constantFrom('example.com', 'acme.example', 'mail.example.org')).map(([local, domain]) => `${local}@${domain}`),
    // People of the sandbox's demo seed, so that changes to existing entries are tried too.
    fc.constantFrom('alan@acme.example', 'katherine@acme.example', 'edsger@acme.example', 'grace@acme.example', 'ada@acme.example', 'claude@globex.example'),
  ),
  phone: fc.tuple(fc.integer({ min: 1, max: 9 }), digits(6, 14)).map(([first, rest]) => `+${first}${rest}`),
  url: fc.webUrl({ validSchemes: ['http', 'https'] }),
  teamname: fc.constantFrom('Platform', 'Payments', 'Mobile', 'Operations', 'No Such Team'),
  severity: fc.constantFrom('P1', 'P2', 'P3', 'P4', 'P5', 'Sev 1'),
  status: fc.constantFrom('triggered', 'acknowledged', 'resolved'),
  role: fc.constantFrom('admin', 'user'),
  id: fc.constantFrom('inc_0001', 'sub_0001', 'inc_does_not_exist', 'sub_9999'),
  title: fc.constantFrom('Deploy failed', 'Checkout latency above 2 s'),
  name: fc.constantFrom('Alex Morgan', 'New Hire'),
  description: fc.constantFrom('Details', ''),
};

/**
 * A value for one field: valid or plausible for that field most of the time, else any text,
 * a value of the wrong type or an empty one. `long` as in anyText.
 */
export function fieldValue(field: string, { long = 1 } = {}): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: valid[field] ?? anyText(long) },
    { weight: 4, arbitrary: plausible[field] ?? anyText(long) },
    { weight: 2, arbitrary: anyText(long) },
    { weight: 2, arbitrary: wrongType },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', undefined, null) },
  );
}

/** Keys that are not fields: random, look-alikes and the ones that bite JavaScript. */
export const extraKey: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'Email', 'EMAIL', 'e-mail', 'team', 'teamName', 'apiKey', 'X-APIKEY', 'id ', ''),
);

/** An object with some of `fields` (each any value) and maybe extra keys. Own `__proto__` keys are real keys. */
export function fieldsObject(fields: readonly string[], { long = 1, extras = true } = {}): fc.Arbitrary<Record<string, unknown>> {
  const entries = fields.map((field) => fc.option(fieldValue(field, { long }), { nil: undefined, freq: 4 }).map((value) => [field, value] as const));
  const extra = extras ? fc.array(fc.tuple(extraKey, fc.oneof(shortText, wrongType)), { maxLength: 3 }) : fc.constant([]);
  return fc.tuple(fc.tuple(...entries), extra).map(([own, more]) => Object.fromEntries([...more, ...own.filter(([, value]) => value !== undefined)]));
}

/** Input for an operation or endpoint: mostly an object of its fields, sometimes not an object at all. */
export function inputFor(fields: readonly string[], options: { long?: number } = {}): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 8, arbitrary: fieldsObject(fields, options) }, { weight: 1, arbitrary: fc.oneof(wrongType, shortText, fc.constant(undefined)) });
}

// ---------------------------------------------------------------------------------------------
// API keys

/** What an API key may be made of (`usableApiKey`): printable ASCII, no spaces. */
export const keyLike: fc.Arbitrary<string> = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  minLength: 16,
  maxLength: 48,
});

/**
 * A key that can be recognised in any text: a fixed prefix no message contains, then random
 * characters (quotes, backslashes and all).
 */
export const recognisableKey: fc.Arbitrary<string> = keyLike.map((tail) => `kq7Z${tail}`);

/**
 * A key with the characters that change between its forms: a `"` and a `\` (escaped in JSON),
 * separators and `%` (escaped in URLs; `!'()~` only in form-encoding), anywhere in it.
 */
export const hostileKey: fc.Arbitrary<string> = fc
  .tuple(
    recognisableKey,
    fc.array(fc.constantFrom('"', '\\', '/', '?', '&', '=', '+', '%', '#', '!', "'", '(', ')', '~', ':', ';', ','), { minLength: 1, maxLength: 6 }),
    fc.nat(),
  )
  .map(([key, specials, at]) => {
    const cut = 4 + (at % (key.length - 3));
    return `${key.slice(0, cut)}${specials.join('')}${key.slice(cut)}`;
  });

/** Every way a hostile service may echo a key: the key or a start or end of 8+ of its characters, in each form. */
export function keyEcho(key: string, { formEncoded = true } = {}): fc.Arbitrary<string> {
  const forms = (text: string) => [
    text,
    JSON.stringify(text).slice(1, -1),
    encodeURIComponent(text),
    ...(formEncoded ? [new URLSearchParams([['k', text]]).toString().slice(2)] : []),
  ];
  return fc.tuple(fc.nat(), fc.constantFrom('whole', 'start', 'end'), fc.nat()).map(([n, part, which]) => {
    const length = 8 + (n % Math.max(1, key.length - 8));
    const piece = part === 'whole' ? key : part === 'start' ? key.slice(0, length) : key.slice(-length);
    const choices = forms(piece);
    return choices[which % choices.length]!;
  });
}
