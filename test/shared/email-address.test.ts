import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { EMAIL_PARAMETER_VALIDATION } from '../../make-app/generator/parameters.ts';
import { EMAIL_ADDRESS_MAX, isEmailAddress } from '../../shared/schemas/email-address.ts';
import { email } from '../../shared/schemas/primitives.ts';
import { check } from '../../shared/validation.ts';

/** Addresses mail systems take (RFC 5322 dot-atom, quoted, RFC 6531, literals): every surface must pass them on. */
const TAKEN = [
  'x&y@acme.example',
  "o'brien@acme.example",
  'ada+oncall@acme.example',
  'a/b=c!d#e$f%g*h?i^j`k{l|m}n~o@acme.example',
  'first.last@sub.acme.example',
  'zoë@exämple.de',
  '名前@例え.jp',
  'δοκιμή@παράδειγμα.δοκιμή',
  '😀@emoji.example',
  // The zero-width non-joiner is part of some scripts' words (IDNA 2008 allows it in context).
  'می\u200Cخواهم@acme.example',
  '"a@b"@acme.example',
  'postmaster@[192.0.2.1]',
  'root@localhost',
  'under_score@my_host.example',
];

/** What cannot be an address: refused before anything is sent. */
const REFUSED = [
  'no-at-sign',
  'a b@c.d',
  'a@b c.d',
  '@acme.example',
  'ada@',
  'ada@acme..example',
  'ada@.acme.example',
  'ada@acme.example.',
  'a@b@c.d',
  'ada@acme,example',
  'tab\there@acme.example',
  'nul\u0000@acme.example',
  'nbsp\u00A0@acme.example',
  'line\u2028@acme.example',
  'Zo\uFFFD@acme.example',
  'lone\uD800@acme.example',
  // Invisible characters that make an address show as another: bidi controls, zero-width space, word joiner.
  'a\u202Egro@acme.example',
  'ada@acme\u202E.example',
  'ada\u2066@acme.example',
  'ada\u200F@acme.example',
  'ada\u061C@acme.example',
  'ad\u200Ba@acme.example',
  'ada@ac\u2060me.example',
  `${'a'.repeat(EMAIL_ADDRESS_MAX)}@b.cd`,
];

describe('the one address rule (shared/schemas/email-address.ts)', () => {
  it.each(TAKEN)('takes %s', (address) => {
    expect(check(email, address)).toEqual({ ok: true, value: address });
  });

  it.each(REFUSED.map((address) => [JSON.stringify(address), address]))('refuses %s', (_shown, address) => {
    expect(check(email, address)).toEqual({ ok: false, problems: [{ field: '', problem: 'must be an e-mail address, e.g. alex@example.com' }] });
  });

  it('trims the space around an address, as every surface sends it', () => {
    expect(check(email, '  x&y@acme.example\n')).toEqual({ ok: true, value: 'x&y@acme.example' });
  });

  // Make checks the same rule by its parameter's pattern (a plain RegExp there): the two must agree.
  it("agrees with Make's parameter pattern on the lists and on any text", () => {
    const pattern = new RegExp(EMAIL_PARAMETER_VALIDATION.pattern);
    for (const address of [...TAKEN, ...REFUSED]) expect([address, pattern.test(address)]).toEqual([address, isEmailAddress(address)]);
    const local = fc.string({ unit: fc.constantFrom('a', 'ë', '&', "'", '+', '.', ' ', '@', '"', '\\', '\u0000', '😀', '\uFFFD', 'Z') });
    fc.assert(
      fc.property(local, local, (left, right) => {
        const text = `${left}@${right}`;
        expect(pattern.test(text)).toBe(isEmailAddress(text.trim()));
      }),
    );
  });

  // Make's pattern bounds the address as the rule does, with the space around it trimmed first.
  it("bounds the address's length in Make's pattern as in the rule", () => {
    const pattern = new RegExp(EMAIL_PARAMETER_VALIDATION.pattern);
    const longest = `${'a'.repeat(EMAIL_ADDRESS_MAX - 5)}@b.cd`;
    expect([isEmailAddress(longest), pattern.test(` ${longest}\n`)]).toEqual([true, true]);
    expect([isEmailAddress(`a${longest}`), pattern.test(`a${longest}`)]).toEqual([false, false]);
  });

  // No nested repetition can backtrack: a long hostile text is decided within the test's time-out.
  it('refuses a long text that almost is an address', () => {
    const hostile = `${'a.'.repeat(50_000)}@${'b-.'.repeat(50_000)}!`;
    expect(isEmailAddress(hostile)).toBe(false);
    expect(new RegExp(EMAIL_PARAMETER_VALIDATION.pattern).test(hostile)).toBe(false);
  });
});
