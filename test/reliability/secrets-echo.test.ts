import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { main } from '../../cli/main.ts';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { appFromFiles } from '../../make-app/interpreter/runner/app-folder.ts';
import type { LogEntry } from '../../make-app/interpreter/runner/execute.ts';
import { makeRunner, type MakeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { Capture } from '../cli/support.ts';
import { faultServer, type Behaviour, type FaultServer } from '../support/fault-server.ts';
import { captureOutput, LeakWatch } from '../support/leak-watch.ts';
import { isolateZapierCore } from '../support/zapier-core-isolation.ts';
import { echoesOf, KEYS, placements, type Echo, type Placement } from './key-echoes.ts';
import { zapierHandler } from './zapier-handler.ts';

/**
 * The key never shows, against a hostile server on loopback that echoes the key it was sent back
 * in every form the leak rule names (test/support/leak-watch.ts `fragments`): the key, its
 * first 8+ and last 8+ characters, each as is, JSON-escaped, URL-encoded and form-encoded;
 * placed in a JSON error text, a non-JSON body (of an error and of a 200), across character 120
 * of a body (where excerpts are cut), in a 429's Retry-After, in a 200's Content-Type and in a
 * redirect's Location. Every surface meets every echo: the typed client, the CLI (human and
 * --json), the Zapier app through zapier-platform-core's handler, and the Make runner. Nothing
 * any of them returns, throws, prints or logs may hold a fragment of the key.
 */
isolateZapierCore();

interface Case {
  echo: Echo;
  placement: Placement;
}
const cases: Case[] = KEYS.flatMap((key) => echoesOf(key).flatMap((echo) => placements.map((placement) => ({ echo, placement }))));

/** One server for the file; `script[0]` is what it answers next (the fault server plays the last entry for every request). */
const script: Behaviour[] = [{ kind: 'answer', status: 200, body: '' }];
let server: FaultServer;
let printed: ReturnType<typeof captureOutput>;
beforeAll(async () => {
  server = await faultServer(script);
  printed = captureOutput();
});
afterAll(async () => {
  printed.stop();
  await server.close();
});

/** Runs every case on one surface, each watched on its own, and returns the places that leaked. */
async function runAll(
  surface: string,
  only: (c: Case) => boolean,
  call: (key: string, watch: LeakWatch, place: string) => Promise<void>,
): Promise<{ ran: number; leaks: string[] }> {
  const leaks: string[] = [];
  let ran = 0;
  for (const c of cases.filter(only)) {
    const watch = new LeakWatch();
    const place = `${surface}: ${c.echo.name} in the ${c.placement.name} (key ${KEYS.indexOf(c.echo.key as (typeof KEYS)[number]) + 1})`;
    script[0] = c.placement.answer(c.echo.text, server.url);
    const before = server.arrivals.length;
    try {
      await call(c.echo.key, watch, place);
    } catch (error) {
      watch.value(`${place} → threw`, error);
    }
    // The key did go out: the echo is the server's, not made up.
    expect({ place, sent: server.arrivals.slice(before).some((arrival) => arrival.apiKey === c.echo.key) }).toEqual({ place, sent: true });
    leaks.push(...watch.leaks([c.echo.key]));
    ran += 1;
  }
  return { ran, leaks };
}

const all = () => true;

describe('a server that echoes the key back, in every form and place, gets it shown by no surface', () => {
  it('the typed client (returned values and thrown errors)', async () => {
    const { ran, leaks } = await runAll('client', all, async (apiKey, watch, place) => {
      const client = createNodeClient({ apiKey, baseUrl: server.url, retries: 0, timeoutMs: 2_000 });
      watch.value(`${place} → returned`, await client.checkApiKey());
    });
    expect(ran).toBe(cases.length);
    expect(leaks).toEqual([]);
  });

  it.each([
    ['human', []],
    ['--json', ['--json']],
  ] as const)('the command line (%s): stdout and stderr', async (_mode, extra) => {
    const { ran, leaks } = await runAll(`cli ${_mode}`, all, async (apiKey, watch, place) => {
      const stdout = new Capture();
      const stderr = new Capture();
      const code = await main(['--base-url', server.url, '--retries', '0', 'check', ...extra], { PAGERLY_API_KEY: apiKey }, { stdout, stderr });
      watch.text(`${place} → stdout (exit ${code})`, stdout.text);
      watch.text(`${place} → stderr (exit ${code})`, stderr.text);
    });
    expect(ran).toBe(cases.length);
    expect(leaks).toEqual([]);
  });

  // What the app returns and throws is held to the rule. zapier-platform-core's own request log
  // is not the app's: core writes it (log-response.js) before any of the app's afterResponse
  // middlewares run, with the whole response (headers, up to all of the body) and censors only
  // the exact authData values (create-logger.js, `findSensitiveValuesFromAuthData`). An echo in
  // another form, or a piece of the key, stays in the response side of that log: a known gap
  // (docs/guarantees.md, Secrets). The request side of it is held to the rule.
  // Core's handler exits the process after 250 runs in it once its memory passes 450 MB
  // (memory-checker.js, constants.js), which a jest worker shared with secrets-zapier.test.ts
  // reaches: so only the second key here, which has every character of the first's kinds and
  // the form-only ones too (144 runs).
  const zapierScope = (c: Case) => c.echo.key === KEYS[1];
  it("the Zapier app through zapier-platform-core (envelope and errors; core's own request log is a known gap)", async () => {
    const zapier = zapierHandler();
    const savedBase = process.env.PAGERLY_BASE_URL;
    process.env.PAGERLY_BASE_URL = server.url;
    const coreLog = new LeakWatch();
    try {
      const { ran, leaks } = await runAll('zapier', zapierScope, async (apiKey, watch, place) => {
        const logged = zapier.logs.length;
        try {
          watch.value(`${place} → returned`, await zapier.run('authentication.test', { authData: { apiKey }, inputData: {} }));
        } finally {
          // The request side of each log line: what the app sent, which core censors.
          zapier.logs.slice(logged).forEach(({ message, data }, index) => {
            coreLog.value(`${place} → core log #${index} (request side)`, {
              message,
              url: data.request_url,
              params: data.request_params,
              headers: data.request_headers,
              body: data.request_data,
            });
          });
        }
      });
      expect(ran).toBe(cases.filter(zapierScope).length);
      expect(leaks).toEqual([]);
      // Core's request log was there (it names the header, censored) and does censor the key as sent.
      expect(zapier.logs.some((line) => /X-APIKEY: :censored:/.test(String(line.data.request_headers)))).toBe(true);
      expect(coreLog.size).toBeGreaterThanOrEqual(cases.filter(zapierScope).length * 2);
      expect(coreLog.leaks([...KEYS])).toEqual([]);
    } finally {
      if (savedBase === undefined) delete process.env.PAGERLY_BASE_URL;
      else process.env.PAGERLY_BASE_URL = savedBase;
    }
  });

  // The Make app redacts in IML (make-app/generator/iml-key.ts); Make caps an expression at
  // 1,024 characters, so the form-encoded form is left out of the texts it checks (docs/guarantees.md,
  // Secrets). Form-encoding differs from URL-encoding only for `!'()~*`: the first
  // key has none, so there every echo is covered; for the second, a form-encoded echo in a
  // service's text is the documented gap and is not run here.
  // (A form-encoded echo that reads the same as the URL-encoded one is not drawn twice: echoesOf.)
  const makeScope = (c: Case) => !(c.placement.inText && c.echo.form === 'form');
  it("the Make runner (returned values, MakeErrors, the runner's log), within the documented scope", async () => {
    const log: LogEntry[] = [];
    const runner: MakeRunner = makeRunner(appFromFiles(generateMakeApp()), { origin: { from: DEFAULT_BASE_URL, to: server.url }, log, timeoutMs: 2_000 });
    const { ran, leaks } = await runAll('make', makeScope, async (apiKey, watch, place) => {
      const logged = log.length;
      try {
        watch.value(`${place} → returned`, await runner.rpc('listTeams', { connection: { apiKey } }));
      } finally {
        log.slice(logged).forEach((entry, index) => {
          watch.value(`${place} → runner log #${index}`, entry);
        });
      }
    });
    // Only the second key's form-encoded echoes in texts are out of scope.
    const outOfScope = cases.filter((c) => !makeScope(c));
    expect(outOfScope.length).toBeGreaterThan(0);
    expect(outOfScope.every((c) => c.echo.key === KEYS[1] && c.placement.inText && c.echo.form === 'form')).toBe(true);
    expect(ran).toBe(cases.length - outOfScope.length);
    expect(leaks).toEqual([]);
  });

  it('nothing printed on the real stdout, stderr or console holds a fragment of either key', () => {
    const watch = new LeakWatch();
    watch.text('process stdout, stderr and console', printed.text);
    expect(watch.leaks([...KEYS])).toEqual([]);
  });
});
