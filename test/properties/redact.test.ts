import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { keyOwner, connectionLabelFor } from '../../shared/operations/key-owner.ts';
import { excerpt, redact, redactorFor } from '../../shared/redact.ts';
import { retryAfterSeconds } from '../../shared/http/retry-after.ts';
import { connectionLabel, keySafeText } from '../../make-app/generator/iml-key.ts';
import { evaluateExpression } from '../../make-app/interpreter/iml/index.ts';
import { fragments } from '../support/leak-watch.ts';
import { anyText, hostileKey, keyEcho } from './support/arbitraries.ts';
import { runs } from './support/runs.ts';

/**
 * The one redaction (shared/redact.ts) and its IML twin (make-app/generator/iml-key.ts), for
 * keys of any printable characters, `"` `\` and separators included, echoed in any form
 * (raw, JSON-escaped, URL- or form-encoded, a start or end of 8+ characters) anywhere in a
 * text, straddling the 120th character included. `fragments` (test/support/leak-watch.ts) is
 * the test's own list of what counts as a leak.
 */
const leaks = (text: string, key: string) => fragments(key).filter((piece) => text.includes(piece));

/** A text with echoes of the key among ordinary text, one of them placed across character 120. */
const echoing = (key: string, options: { formEncoded?: boolean } = {}) =>
  fc
    .tuple(fc.array(fc.tuple(anyText(), keyEcho(key, options)), { minLength: 1, maxLength: 4 }), keyEcho(key, options), fc.nat(20))
    .map(([parts, straddling, shift]) => {
      const text = parts.map(([plain, echo]) => `${plain}${echo}`).join(' ');
      const before = 'x'.repeat(Math.max(0, 120 - shift - text.length));
      return `${text}${before}${straddling}`.slice(0, 4000);
    });

describe('no text keeps the key in any form', () => {
  it('redact, then excerpt at any length, leave no form or 8-character piece of the key', () => {
    fc.assert(
      fc.property(
        hostileKey.chain((key) => fc.tuple(fc.constant(key), echoing(key), fc.integer({ min: 1, max: 300 }))),
        ([key, text, max]) => {
          expect(leaks(redact(text, [key]), key)).toEqual([]);
          // The sandbox's console redacts through a redactor made once for its keys: the same text.
          expect(redactorFor([key])(text)).toBe(redact(text, [key]));
          expect(leaks(excerpt(text, [key], max), key)).toEqual([]);
          expect(leaks(excerpt(JSON.stringify({ error: text }), [key], max), key)).toEqual([]);
        },
      ),
      { numRuns: runs(300) },
    );
  });

  // Make allows 1,024 characters per message expression: the form-encoded form (which no request
  // of the app produces: the key only travels in a header) does not fit, and is left out.
  it('the pieces are built once per set of keys: with more key sets than the cache holds, each text is redacted the same every pass', () => {
    // shared/redact.ts keeps the pieces of the last 32 key sets: 40 sets, visited forwards and
    // back, evict and rebuild them, and a cached set must never serve another set of keys.
    fc.assert(
      fc.property(
        fc.array(
          hostileKey.chain((key) => fc.tuple(fc.constant(key), echoing(key))),
          { minLength: 40, maxLength: 40 },
        ),
        (cases) => {
          const firstPass = cases.map(([key, text]) => redact(text, [key]));
          const backwards = [...cases]
            .reverse()
            .map(([key, text]) => redact(text, [undefined, key]))
            .reverse();
          const again = cases.map(([key, text]) => redact(text, [key]));
          cases.forEach(([key], i) => {
            expect(leaks(firstPass[i]!, key)).toEqual([]);
          });
          expect(backwards).toEqual(firstPass);
          expect(again).toEqual(firstPass);
        },
      ),
      { numRuns: runs(10) },
    );
  });

  it("Make's error text (IML, evaluated): the key replaced or the text withheld, and only then cut to 120", () => {
    fc.assert(
      fc.property(
        hostileKey.chain((key) => fc.tuple(fc.constant(key), echoing(key, { formEncoded: false }), fc.boolean())),
        ([key, text, asJson]) => {
          const body = asJson ? { error: text } : text;
          const shown = evaluateExpression(keySafeText('body', 'parameters.apiKey'), { body, parameters: { apiKey: key } });
          expect(typeof shown).toBe('string');
          expect((shown as string).length).toBeLessThanOrEqual(120);
          expect(leaks(shown as string, key)).toEqual([]);
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it("a text without the key passes Make's filter unchanged, but for the cut", () => {
    fc.assert(
      fc.property(hostileKey, anyText(), (key, text) => {
        // U+0001 marks a found piece inside the expression: a text holding it is withheld too.
        fc.pre(leaks(text, key).length === 0 && !text.includes('\u0001'));
        const shown = evaluateExpression(keySafeText('body', 'parameters.apiKey'), { body: text, parameters: { apiKey: key } });
        expect(shown).toBe(text.substring(0, 120));
      }),
      { numRuns: runs(200) },
    );
  });

  it("labels (shared rule and Make's IML) never show the key, nor fall back to any character of it", () => {
    fc.assert(
      fc.property(
        hostileKey.chain((key) => fc.tuple(fc.constant(key), keyEcho(key), fc.constantFrom('name', 'email', 'organization'))),
        ([key, echo, where]) => {
          const check = {
            user: { name: where === 'name' ? `Key ${echo}` : 'Grace Hopper', email: where === 'email' ? `${echo}@acme.example` : 'grace@acme.example' },
            organization: { name: where === 'organization' ? echo : 'Acme' },
          };
          const shared = connectionLabelFor(check, key);
          expect(leaks(shared, key)).toEqual([]);
          expect(keyOwner(check, key).label ?? '').not.toContain(echo);
          const make = evaluateExpression(connectionLabel('parameters.apiKey', 'Pagerly API key'), {
            body: check,
            parameters: { apiKey: key },
          }) as string;
          // Make's label checks the key's raw and URL-encoded starts and ends (512 characters allow no more).
          if (echo.includes(key.slice(0, 8)) || echo.includes(key.slice(-8))) expect(leaks(make, key).filter((p) => p.length === 8 || p === key)).toEqual([]);
          expect(connectionLabelFor({}, key)).toBe('Pagerly API key');
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it('Retry-After becomes a number of seconds or nothing: never the text that came', () => {
    fc.assert(
      fc.property(fc.oneof(hostileKey, anyText(), fc.nat().map(String)), (value) => {
        const seconds = retryAfterSeconds(value, new Date('2026-11-02T08:00:00Z'));
        if (seconds !== undefined) expect(Number.isSafeInteger(seconds) && seconds >= 0).toBe(true);
        if (!/^\s*\d+\s*$/.test(value)) expect(seconds === undefined || /GMT|\d{4}$/.test(value)).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });
});
