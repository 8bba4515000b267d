import { describe, expect, it } from '@jest/globals';
import { failureCode } from '../../shared/http/certificate.ts';
import { clientDriver } from '../surfaces/client.ts';
import { isGap, settle, type SurfaceDriver } from '../surfaces/driver.ts';
import { drivers } from '../surfaces/index.ts';
import { rows, type Row } from './answers.ts';
import { callOf, checkRow, expectedOf } from './conformance.ts';
import { KNOWN_FAILURES } from './known-failures.ts';

/**
 * The conformance table (answers.ts) on every surface of the registry (test/surfaces/index.ts),
 * each through its real runtime: a new driver there gets every row.
 */
for (const driver of drivers) driver.useInTestFile?.();

const knownFailure = (row: Row, driver: SurfaceDriver) => KNOWN_FAILURES.find((known) => known.row === row.name && known.surface === driver.name);

describe('the table', () => {
  it('has at least 30 rows, each named once', () => {
    expect(rows.length).toBeGreaterThanOrEqual(30);
    expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
  });

  it('says why wherever a surface differs, and names only surfaces of the registry', () => {
    const names = new Set(drivers.map((driver) => driver.name));
    for (const row of rows)
      for (const [surface, own] of Object.entries(row.on ?? {})) {
        expect(names.has(surface)).toBe(true);
        expect(own.why.length).toBeGreaterThan(40);
      }
  });

  it('lists each known failure once, for a row and a surface that exist, with its reason', () => {
    for (const known of KNOWN_FAILURES) {
      expect(rows.some((row) => row.name === known.row)).toBe(true);
      expect(drivers.some((driver) => driver.name === known.surface)).toBe(true);
      expect(known.why.length).toBeGreaterThan(40);
    }
    expect(new Set(KNOWN_FAILURES.map((known) => `${known.row}|${known.surface}`)).size).toBe(KNOWN_FAILURES.length);
  });
});

describe.each(drivers.map((driver) => [driver.name, driver] as const))('%s against the conformance table', (_name, driver) => {
  const cases = rows.map((row) => {
    const call = callOf(driver, row);
    const own = expectedOf(row, driver.name).why;
    return { row, gap: isGap(call) ? call.gap : undefined, known: knownFailure(row, driver), label: own ? `${row.name} (differs: ${own})` : row.name };
  });
  const held = cases.filter((c) => !c.gap && !c.known);
  const known = cases.filter((c) => !c.gap && c.known);
  const gaps = cases.filter((c) => c.gap);
  if (held.length) it.each(held.map((c) => [c.label, c.row] as const))('%s', async (_label, row) => void (await checkRow(driver, row)));
  // Still failing, as the list says: once one passes, its entry must go.
  if (known.length)
    it.each(known.map((c) => [c.row.name, c.known!.why, c.row] as const))('KNOWN FAILURE %s: %s', async (_label, _why, row) => {
      await expect(checkRow(driver, row)).rejects.toThrow();
    });
  if (gaps.length) it.skip.each(gaps.map((c) => [`${c.row.name} (${c.gap})`] as const))('%s', () => undefined);
});

/**
 * The table is only worth its passes if it fails a surface that does wrong: drivers built
 * wrong on purpose, each run through the rows they must fail.
 */
describe('the table fails a surface that does wrong', () => {
  const row = (name: string) => {
    const found = rows.find((r) => r.name === name);
    if (!found) throw new Error(`no row "${name}"`);
    return found;
  };

  /** A create that passes the answer on as it came, reading no id where the service put it. */
  const asItCame: SurfaceDriver = {
    ...clientDriver,
    name: 'a create that reads the id at the top level only',
    write: ({ baseUrl, apiKey }) =>
      settle(
        async () => {
          const response = await fetch(`${baseUrl}/o/incident`, { method: 'POST', headers: { 'X-APIKEY': apiKey }, body: '{"title":"Disk full"}' });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const text = await response.text();
          return text ? JSON.parse(text) : {};
        },
        (error) => ({ message: String(error), kind: 'server', native: 'Error', own: true }),
      ),
  };

  /** The withdrawn rule: a create answered 2xx without an id reported as a failure. */
  const noIdIsFailure: SurfaceDriver = {
    ...clientDriver,
    name: 'a 2xx without an id is a failure',
    write: async (target) => {
      const outcome = await clientDriver.write(target);
      if (!outcome.ok || (outcome.value as { id?: string }).id) return outcome;
      return { ok: false, kind: 'invalid_response', native: 'MissingIdError', own: true, message: 'The service gave no id.', shown: outcome.shown };
    },
  };

  it('the top-level reading passes the create with its id: the rows below fail on where the id is alone', async () => {
    await expect(checkRow(asItCame, row('create: 201 with an id'))).resolves.toMatchObject({ ok: true });
  });

  it.each(['create: 200 the id in one wrapping object', 'create: 201 a list of the incident', 'create: 201 empty, the id in Location'])(
    'a create that reads no id where the service put it fails "%s"',
    async (name) => {
      await expect(checkRow(asItCame, row(name))).rejects.toThrow();
    },
  );

  it('a create that passes an empty answer on as it came fails "create: 200 {}" on the missing note', async () => {
    await expect(checkRow(asItCame, row('create: 200 {}'))).rejects.toThrow(/gave no id that could be read/);
  });

  it.each(['create: 200 {}', 'create: 201 with an empty body', 'create: 201 a bare INC-7 as text'])(
    'a create that calls a 2xx without an id a failure fails "%s"',
    async (name) => {
      await expect(checkRow(noIdIsFailure, row(name))).rejects.toThrow(/expected success, got invalid_response/);
    },
  );

  it('a key check that insists on JSON fails the text/plain row', async () => {
    const jsonOnly: SurfaceDriver = {
      ...clientDriver,
      name: 'a key check that parses the body',
      checkKey: ({ baseUrl, apiKey }) =>
        settle(
          async () => (await fetch(`${baseUrl}/o/test/apikey`, { headers: { 'X-APIKEY': apiKey } })).json(),
          () => ({ message: 'The key could not be checked.', kind: 'invalid_response', native: 'SyntaxError', own: true }),
        ),
    };
    await expect(checkRow(jsonOnly, row('key check: 200 text/plain "API Key is valid"'))).rejects.toThrow(/expected success, got invalid_response/);
  });

  it('a surface that calls an unverifiable certificate a passing network fault fails the TLS row', async () => {
    const temporary: SurfaceDriver = {
      ...clientDriver,
      name: 'calls a bad certificate temporary',
      read: async ({ baseUrl, apiKey }) => {
        try {
          await fetch(`${baseUrl}/pagerly/o/zapier/allteams`, { headers: { 'X-APIKEY': apiKey } });
        } catch (error) {
          const code = failureCode(error);
          return {
            ok: false,
            kind: 'network',
            native: 'NetworkError',
            own: true,
            message: `Could not reach the service (${code}); temporary: try again.`,
            shown: {},
          };
        }
        throw new Error('the handshake passed');
      },
    };
    await expect(checkRow(temporary, row('teams: a self-signed TLS certificate'))).rejects.toThrow(/expected certificate, got network/);
  });

  it('a surface that puts everyone on call in every result fails the row of a person on call in two teams', async () => {
    // As the on-call search once did: each result summing up the whole answer, not its team.
    const everyoneInEach: SurfaceDriver = {
      ...clientDriver,
      name: "everyone's names in every result",
      everyoneOnCall: async (target) => {
        const outcome = await clientDriver.everyoneOnCall(target);
        if (!outcome.ok) return outcome;
        const all = outcome.value as { name: string }[];
        const names = all.map((person) => person.name).join(', ');
        return { ...outcome, value: all.map((person) => ({ ...person, on_call_names: names, on_call_count: all.length })) };
      },
    };
    await expect(checkRow(everyoneInEach, row('everyone on call: a person on call in two teams'))).rejects.toThrow(
      /"Grace Hopper" at most 2 times in each item, got 3/,
    );
  });

  it('a surface that quotes the service page whole fails the 502 row, on the key and on the length', async () => {
    const quoting: SurfaceDriver = {
      ...clientDriver,
      name: 'quotes the 502 page',
      read: async ({ baseUrl, apiKey }) => {
        const response = await fetch(`${baseUrl}/pagerly/o/zapier/allteams`, { headers: { 'X-APIKEY': apiKey } });
        return { ok: false, kind: 'server', native: 'Error', own: true, message: `HTTP ${response.status}: ${await response.text()}`, shown: {} };
      },
    };
    await expect(checkRow(quoting, row('teams: 502 HTML page'))).rejects.toThrow(/END-OF-PAGE/);
  });
});
