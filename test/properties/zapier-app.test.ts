import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Bundle } from 'zapier-platform-core';
import * as z from 'zod/mini';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations, type ActionOperation, type InputField, type SearchOperation } from '../../shared/operations/index.ts';
import { offlineNock, unmatchedRequests } from '../support/offline-nock.ts';
import { appTester, parseZapierError, performOf } from '../zapier/support.ts';
import { inputFor, keyLike, recognisableKey, shortText, wrongType } from './support/arbitraries.ts';
import { goodInput, isIllFormed, isObject } from './support/catalog.ts';
import { runs } from './support/runs.ts';
import { zapierName } from '../../zapier-app/operation-names.ts';

/**
 * Property 2, the Zapier app: every create and search, run through zapier-platform-core's app
 * tester with any inputData and authData while nock refuses all network, ends in a success or
 * one of Zapier's errors, and makes no request at all when its input is invalid.
 */

offlineNock();

const RUNS = { perOperation: runs(250), knownBug: 20 };

// The service's own origin: nothing may point the app elsewhere while nock blocks the network.
const savedBases = [process.env.PAGERLY_BASE_URL, process.env.PAGERLY_ROTATIONS_BASE_URL];
// zapier-platform-core's handler calls process.exit(1) once it has run 250 times in a process
// whose RSS is above 450 MB (tools/memory-checker.js: Lambda's "restart me" valve), and its
// appTester with nock keeps ~30 kB per blocked request; this file runs it ~1,800 times in a jest
// worker that starts near 300 MB. So the valve reads an RSS of 0 here, and only here.
const memoryUsage = process.memoryUsage;
beforeAll(() => {
  delete process.env.PAGERLY_BASE_URL;
  delete process.env.PAGERLY_ROTATIONS_BASE_URL;
  process.memoryUsage = Object.assign(() => ({ ...memoryUsage.call(process), rss: 0 }), { rss: () => 0 });
});
afterAll(() => {
  process.memoryUsage = memoryUsage;
  if (savedBases[0] !== undefined) process.env.PAGERLY_BASE_URL = savedBases[0];
  if (savedBases[1] !== undefined) process.env.PAGERLY_ROTATIONS_BASE_URL = savedBases[1];
});

type Runnable = { kind: 'creates' | 'searches'; operation: ActionOperation | SearchOperation };
const runnable: Runnable[] = operations.flatMap((operation): Runnable[] => {
  if (operation.kind === 'action') return [{ kind: 'creates', operation }];
  if (operation.kind === 'search') return [{ kind: 'searches', operation }];
  return [];
});

const ZAPIER_ERRORS = ['AppError', 'ExpiredAuthError', 'ThrottledError'];

// ---------------------------------------------------------------------------------------------
// The oracle: what the app documents it sends (shared/operations/endpoint-input.ts), written out here
// again so the test does not take the app's word for it.

/** Only declared fields; "", blank, null and undefined left out; numbers and booleans as text. */
function documentedInput(fields: readonly InputField[], inputData: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const { key } of fields) {
    if (!Object.hasOwn(inputData, key)) continue;
    const value = inputData[key];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) continue;
    input[key] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
  return input;
}

/** A key the client would send (usableApiKey): printable ASCII without spaces once trimmed. */
const usableKey = (apiKey: unknown): apiKey is string => typeof apiKey === 'string' && /^[\x21-\x7e]+$/.test(apiKey.trim());

// ---------------------------------------------------------------------------------------------
// Generators

/**
 * Zapier's inputData is an object; fields get any value, some are left out, extra ones appear.
 * A lone surrogate in a field sent in the query is a known bug (below), left out here.
 */
const inputData = (operation: ActionOperation | SearchOperation) => {
  const inQuery = endpoints[operation.endpoint].method !== 'POST';
  return inputFor(operation.inputFields.map((field) => field.key))
    .map((input) => (isObject(input) ? input : { value: input }))
    .filter((input) => !inQuery || !operation.inputFields.some(({ key }) => isIllFormed(input[key])));
};

/**
 * authData: mostly a good key, else an empty, spaced, unicode or missing one. Non-strings are a
 * known bug (below). Lone surrogates are left out: with one in an authData value of 6 or more
 * characters, zapier-platform-core itself hangs on any failure (its secret scrubber's
 * encodeURIComponent throws a URIError inside the handler's domain, so perform never settles;
 * @zapier/secret-scrubber lib/utils.js makeSensitiveBank). Upstream, and out of this app's reach.
 */
const authData = fc.oneof(
  { weight: 6, arbitrary: recognisableKey.map((apiKey) => ({ apiKey })) },
  { weight: 1, arbitrary: keyLike.map((apiKey) => ({ apiKey: ` ${apiKey} `, other: 'x' })) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(shortText, fc.constantFrom('', ' ', 'kq7Z key with spaces', 'kq7Zkéy', 'kq7Z\u0000key'))
      .filter((text) => !isIllFormed(text))
      .map((apiKey) => ({ apiKey })),
  },
  { weight: 1, arbitrary: fc.constantFrom({}, { apiKey: undefined }, { apiKey: null }, { api_key: 'kq7Z-wrong-field-name' }) },
);

// ---------------------------------------------------------------------------------------------

describe('Zapier creates and searches with any input, offline', () => {
  it.each(runnable.map((r) => [`${r.kind}.${zapierName(r.operation).key}`, r] as const))(
    '%s: ends in a success or a Zapier error, and sends nothing when the input is invalid',
    async (_, { kind, operation }) => {
      const perform = performOf(kind, zapierName(operation).key);
      const schema = endpoints[operation.endpoint].input;
      // An update that keeps what is left empty checks the fields given, then reads the entry by its identifying fields.
      const keeps = operation.kind === 'action' ? operation.keepsOmitted : undefined;
      const validInput = (given: Record<string, unknown>) => {
        if (!keeps) return z.safeParse(schema, given).success;
        const identifying = Object.fromEntries(operation.inputFields.filter((field) => field.required).map((field) => [field.key, given[field.key]]));
        return z.safeParse(z.partial(schema as z.ZodMiniObject), given).success && z.safeParse(endpoints[keeps.read].input, identifying).success;
      };
      const seen = { refusedKey: 0, refusedInput: 0, sent: 0 };
      await fc.assert(
        fc.asyncProperty(inputData(operation), authData, async (input, auth) => {
          const requests = unmatchedRequests();
          let failure: unknown;
          try {
            await appTester(perform, { inputData: input, authData: auth as Record<string, string> });
          } catch (error) {
            failure = error;
          } finally {
            requests.stop();
          }
          // Nothing answers, so no run can succeed; each must end in one of Zapier's errors.
          expect(failure).toBeDefined();
          const parsed = parseZapierError(failure);
          if (!ZAPIER_ERRORS.includes(parsed.name)) throw new Error(`${kind}.${zapierName(operation).key} crashed with ${parsed.name}: ${parsed.raw}`);

          const apiKey = (auth as { apiKey?: unknown }).apiKey;
          if (typeof apiKey === 'string' && apiKey.trim().length >= 8) expect(parsed.raw).not.toContain(apiKey.trim());
          if (!usableKey(apiKey)) {
            seen.refusedKey += 1;
            expect(parsed.name).toBe('ExpiredAuthError');
            expect(requests.count).toBe(0);
          } else if (!validInput(documentedInput(operation.inputFields, input)) || !wellFormed(documentedInput(operation.inputFields, input))) {
            seen.refusedInput += 1;
            expect(parsed).toMatchObject({ name: 'AppError', code: 'invalid_input' });
            expect(requests.count).toBe(0);
          } else {
            seen.sent += 1;
            expect(requests.count).toBe(1);
            expect(parsed.name).toBe('ThrottledError'); // no answer: Zapier retries later
          }
        }),
        // A good input, a bad one and a missing key first, so every branch is always taken.
        {
          numRuns: RUNS.perOperation,
          timeout: 5_000,
          examples: [
            [goodInput[operation.endpoint], { apiKey: 'kq7Z-zapier-key-0000' }],
            [{ email: 5, title: [], teamname: {} }, { apiKey: 'kq7Z-zapier-key-0000' }],
            [goodInput[operation.endpoint], {}],
          ],
        },
      );
      // Every branch of the oracle was taken, or the generators are too kind (or too cruel).
      expect(seen.refusedKey * seen.refusedInput * seen.sent).toBeGreaterThan(0);
    },
  );
});

/** Text with an unpaired surrogate cannot be sent: the client refuses it as invalid input. */
const wellFormed = (value: unknown): boolean =>
  typeof value === 'string' ? value.isWellFormed() : value !== null && typeof value === 'object' ? Object.values(value).every(wellFormed) : true;

describe('regressions: bugs these properties found, now fixed', () => {
  // Found by this property (fixed): a field sent in the query that holds a lone surrogate half passes the schema (teamName
  // only trims and counts), then z.request cannot encode the URL (ERR_INVALID_URI "URI
  // malformed") and zRequestTransport reports every such exception as a NetworkError, so Zapier
  // gets a ThrottledError and retries, forever, a request that was never sent and never can be.
  // Minimal: searches.find_on_call_users with inputData { teamname: '\ud800' } → ThrottledError
  // "Could not reach the service at api.pagerly.io (ERR_INVALID_URI: URI malformed)", 0 requests.
  // (The typed client's urlWithQuery instead turns it into U+FFFD and asks for another team.)
  // Fix: refuse text that is not well-formed in the shared schemas (a z.refine with
  // String.prototype.isWellFormed on teamName and requiredText), so it is an invalid_input AppError;
  // and let zRequestTransport map only errors with a network code to NetworkError.
  it('a lone surrogate in a query field is refused as invalid input, not retried as a network failure', async () => {
    const ill = fc
      .tuple(fc.constantFrom('', 'Platform', ' '), fc.integer({ min: 0xd800, max: 0xdfff }), fc.constantFrom('', 'x'))
      .map(([before, half, after]) => `${before}${String.fromCharCode(half)}${after}`);
    await fc.assert(
      fc.asyncProperty(ill, recognisableKey, async (teamname, apiKey) => {
        const requests = unmatchedRequests();
        const failure = await appTester(performOf('searches', 'find_on_call_users'), { inputData: { teamname }, authData: { apiKey } }).then(
          () => undefined,
          (error: unknown) => error,
        );
        requests.stop();
        const parsed = parseZapierError(failure);
        if (requests.count === 0) expect(parsed).toMatchObject({ name: 'AppError', code: 'invalid_input' });
      }),
      { numRuns: RUNS.knownBug, examples: [['\ud800', 'kq7Z-zapier-key-0000']], endOnFailure: true, timeout: 5_000 },
    );
  });

  // Found by this property (fixed): an authData.apiKey that is not a string crashes every operation with a TypeError
  // ("apiKey?.trim is not a function", shared/http/request.ts usableApiKey) instead of asking for
  // the connection to be fixed: clientForBundle passes `bundle.authData.apiKey ?? ''` on unchecked.
  // Minimal: creates.create_incident with authData { apiKey: 0 }, inputData { title: 'x' }.
  // Zapier stores auth fields as text, so this takes a hand-made bundle (tests, a replayed or
  // migrated bundle, a future auth field of another type). Fix: usableApiKey takes
  // `unknown` and refuses a non-string with the AuthenticationError it gives an empty key.
  it('an authData.apiKey of another type marks the connection as needing attention', async () => {
    // A lone surrogate anywhere in authData hangs zapier-platform-core's own secret scrubber
    // (upstream, out of the app's reach; see the note at the top of this file): left out.
    const notText = fc.oneof(
      wrongType.filter((v) => v !== null && wellFormed(v)),
      fc.constant(0),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...runnable.map((r) => `${r.kind}.${zapierName(r.operation).key}`)), notText, async (name, apiKey) => {
        const [kind, key] = name.split('.') as ['creates' | 'searches', string];
        const bundle: Partial<Bundle> = {
          inputData: { title: 'x', email: 'alex@example.com' },
          // @ts-expect-error core types authData as text: a key of another type is the malformed input under test.
          authData: { apiKey },
        };
        const failure = await appTester(performOf(kind, key), bundle).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(parseZapierError(failure).name).toBe('ExpiredAuthError');
      }),
      { numRuns: RUNS.knownBug, examples: [['creates.create_incident', 0]], endOnFailure: true },
    );
  });
});
