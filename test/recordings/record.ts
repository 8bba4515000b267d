// `npm run record`: runs every scenario of scenarios.ts through the typed client and writes
// what went over the wire to test/recordings/<scenario>.json.
//
// Without PAGERLY_API_KEY: against a fresh in-process sandbox per scenario (fixed clock and
// ids, so re-recording writes the same bytes). With it: against the real service; see README.md here.
// PAGERLY_RECORD_DIR writes the files into another folder (to review a live recording first).
//
// Against the real service every scenario runs with the key of its identity, never another:
// a non-admin's scenario (the refusals, among others) sent with the admin's key would change
// real data. So PAGERLY_USER_API_KEY is required there, and checked to be a non-admin's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
type Definition = nock.Definition;
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { isPagerlyError } from '../../shared/errors.ts';
import { redact } from '../../shared/redact.ts';
import { createSandbox, demoKeys } from '../../sandbox/index.ts';
import { withEmptyOrganization, EMPTY_ORG_KEY } from './empty-org-seed.ts';
import { CANONICAL_ORIGIN, KEPT_HEADERS, recordingPath, type RecordingFile } from './recording-file.ts';
import { scenarios, type Fixture, type Identity, type Scenario } from './scenarios.ts';

const live = Boolean(process.env.PAGERLY_API_KEY);
/** Live only: the person said yes to the plan. */
const confirmed = process.argv.slice(2).includes('--yes');
const outputDir = process.env.PAGERLY_RECORD_DIR;
const outputPath = (scenario: string) => (outputDir ? join(outputDir, `${scenario}.json`) : recordingPath(scenario));

/** A setting that keeps the command from recording: printed as one line, before any request when it can be. */
class Refusal extends Error {}

const sandboxFixture: Fixture = {
  team: 'Platform',
  emptyTeam: 'Mobile',
  existingEmail: 'katherine@acme.example',
  newEmail: 'new.hire@acme.example',
  hookUrl: 'https://hooks.example.com/pagerly/on-call',
};

function liveFixture(): Fixture {
  const need = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Refusal(`Recording against the real service needs ${name}; see test/recordings/README.md.`);
    return value;
  };
  return {
    team: need('PAGERLY_RECORD_TEAM'),
    emptyTeam: process.env.PAGERLY_RECORD_EMPTY_TEAM ?? need('PAGERLY_RECORD_TEAM'),
    existingEmail: need('PAGERLY_RECORD_EMAIL'),
    newEmail: process.env.PAGERLY_RECORD_NEW_EMAIL ?? 'pagerly-connectors-recording@example.com',
    hookUrl: process.env.PAGERLY_RECORD_HOOK_URL ?? 'https://example.com/pagerly-connectors-recording',
  };
}

const invalidKey = 'not-a-valid-key-0000';

/** The key of each identity. Live: the non-admin's key is required and must differ from the admin's. */
function keysFor(live: boolean): Record<Identity, string | undefined> {
  if (!live) return { admin: demoKeys.acmeAdmin, user: demoKeys.acmeUser, invalid: invalidKey, emptyOrg: EMPTY_ORG_KEY };
  const admin = process.env.PAGERLY_API_KEY;
  const user = process.env.PAGERLY_USER_API_KEY;
  if (!user?.trim()) {
    throw new Refusal('Recording against the real service needs PAGERLY_USER_API_KEY: set it to a non-admin\'s API key (the scenarios that run as a non-admin are never sent with the admin\'s key), or unset PAGERLY_API_KEY to record from the sandbox.');
  }
  if (user.trim() === admin?.trim()) {
    throw new Refusal('PAGERLY_USER_API_KEY is the same key as PAGERLY_API_KEY: set it to a non-admin\'s API key, so that the non-admin scenarios are not sent as the admin.');
  }
  return { admin, user, invalid: invalidKey, emptyOrg: undefined };
}

/**
 * Live only: asks the service (with the non-admin key itself) whose key PAGERLY_USER_API_KEY
 * is, and refuses unless it is a plain user's: an admin's key would make the refusal
 * scenario really create, re-role and remove directory entries.
 */
async function checkUserKeyIsNotAdmin(baseUrl: string | undefined, userKey: string, keys: readonly (string | undefined)[]): Promise<void> {
  const client = createNodeClient({ apiKey: userKey, ...(baseUrl ? { baseUrl } : {}), retries: 0 });
  let check: Awaited<ReturnType<typeof client.checkApiKey>> = {};
  // Inside a recorder session (see `recorded`); what it records is not kept.
  await recorded(async () => {
    check = await client.checkApiKey().catch((error: unknown) => {
      // The client redacts its own key; the service may have echoed the admin's too.
      throw new Refusal(`Could not check PAGERLY_USER_API_KEY: ${isPagerlyError(error) ? redact(error.message, keys) : 'the key check failed'}`);
    });
  });
  const role = typeof check.user?.role === 'string' ? check.user.role.trim().toLowerCase() : undefined;
  if (role !== 'user') {
    throw new Refusal(`PAGERLY_USER_API_KEY must be a non-admin's key (role user), but the service says its role is ${role ?? 'not given'}: set it to the key of a person who is not an org admin.`);
  }
}

/**
 * Every string of a recording (paths, bodies, headers) with every form of the keys removed by
 * the shared `redact`, before it is serialised: redacting the JSON text afterwards could cut
 * an escape sequence in half.
 */
function redactDeep<T>(value: T, keys: readonly (string | undefined)[]): T {
  if (typeof value === 'string') return redact(value, keys) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, keys)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [redact(name, keys), redactDeep(item, keys)])) as T;
  }
  return value;
}

function normalise(definition: Definition, fromSandbox: boolean): Definition {
  const headers = Object.entries((definition as { rawHeaders?: Record<string, string> }).rawHeaders ?? {})
    .filter(([name]) => KEPT_HEADERS.includes(name.toLowerCase()));
  const { reqheaders: _dropped, ...rest } = definition as Definition & { reqheaders?: unknown };
  return { ...rest, scope: fromSandbox ? CANONICAL_ORIGIN : definition.scope, rawHeaders: Object.fromEntries(headers) } as Definition;
}

/**
 * Runs `work` with nock's recorder on and returns what went over the wire. Every request of
 * this command goes through here, the key check included: got resolves its way of sending on
 * first use, so a request made outside a recorder session leaves later sessions recording nothing.
 */
async function recorded(work: () => Promise<void>): Promise<Definition[]> {
  nock.recorder.clear();
  nock.recorder.rec({ dont_print: true, output_objects: true });
  try {
    await work();
  } finally {
    nock.restore();
  }
  return nock.recorder.play() as Definition[];
}

async function record(scenario: Scenario, fixture: Fixture, baseUrl: string, apiKey: string): Promise<Definition[]> {
  const client = createNodeClient({ apiKey, baseUrl, retries: 0 });
  const outputs: unknown[] = [];
  return recorded(async () => {
    for (const step of scenario.steps(fixture)) {
      const input = typeof step.input === 'function' ? step.input(outputs) : step.input;
      const outcome = await client.send(step.endpoint, input).then(
        (value) => ({ name: 'ok', value }),
        (error: unknown) => {
          if (!isPagerlyError(error)) throw error;
          return { name: error.name, value: undefined };
        },
      );
      if (outcome.name !== step.expect) {
        throw new Error(`Scenario ${scenario.name}, ${step.endpoint}: expected ${step.expect}, got ${outcome.name}`);
      }
      outputs.push(outcome.value);
    }
  });
}

/** Which scenarios a run records: live, the sandbox-only ones are skipped, and those that write unless PAGERLY_RECORD_WRITES=1. */
const runsLive = (scenario: Scenario) => !scenario.sandboxOnly && (!scenario.writes || process.env.PAGERLY_RECORD_WRITES === '1');

/**
 * What a live run will do in the organization, told before any request: the keys it uses,
 * what it reads, what it asks the service to refuse, and every change it makes (from the
 * scenarios' own steps, so the plan cannot drift from what is sent).
 */
function livePlan(fixture: Fixture): string[] {
  const base = process.env.PAGERLY_BASE_URL ?? DEFAULT_BASE_URL;
  const running = scenarios.filter(runsLive);
  const changes = (scenario: Scenario) =>
    scenario.steps(fixture).filter((step) => endpoints[step.endpoint].method !== 'GET' && step.expect === 'ok').map((step) => {
      const endpoint = endpoints[step.endpoint];
      const input = typeof step.input === 'function' ? 'the one made above' : JSON.stringify(step.input);
      return `      ${endpoint.method} ${endpoint.path}  ${endpoint.summary.charAt(0).toLowerCase()}${endpoint.summary.slice(1)}: ${input}`;
    });
  const writing = running.filter((scenario) => scenario.writes);
  const skippedWrites = scenarios.filter((scenario) => scenario.writes && !scenario.sandboxOnly && !runsLive(scenario));
  return [
    `npm run record against the real service at ${base} records ${running.length} scenarios into ${outputDir ?? 'test/recordings/'}.`,
    '  Keys: PAGERLY_API_KEY, an org admin\'s (for the admin scenarios); PAGERLY_USER_API_KEY, a non-admin\'s (for every other one; its role is checked first with GET /o/test/apikey).',
    `  Reads: ${running.filter((scenario) => !scenario.writes).map((scenario) => scenario.name).join(', ')}.`,
    '  Refusals: as the non-admin, it asks to create, re-role and remove directory entries; the service must refuse each (nothing changes).',
    ...(writing.length
      ? ['  Changes it makes in that organization (PAGERLY_RECORD_WRITES=1), each undone by the same scenario where the API allows:', ...writing.flatMap((scenario) => [`    ${scenario.name} (as ${scenario.as}):`, ...changes(scenario)])]
      : [`  Changes: none (set PAGERLY_RECORD_WRITES=1 to also record ${skippedWrites.map((scenario) => scenario.name).join(', ')}, which create and delete data).`]),
  ];
}

async function main() {
  const keys = keysFor(live);
  const fixture = live ? liveFixture() : sandboxFixture;
  if (live && !confirmed) {
    process.stderr.write(`${livePlan(fixture).join('\n')}\n`);
    throw new Refusal('nothing was sent. Re-run with `npm run record -- --yes` to go ahead.');
  }
  if (live) await checkUserKeyIsNotAdmin(process.env.PAGERLY_BASE_URL, keys.user!, Object.values(keys));
  if (outputDir) mkdirSync(outputDir, { recursive: true });
  const written: string[] = [];
  for (const scenario of scenarios) {
    const apiKey = keys[scenario.as];
    if (live && (!runsLive(scenario) || !apiKey)) continue;
    // The guard itself, whatever the settings: a scenario of another identity never goes out with the admin's key.
    if (scenario.as !== 'admin' && apiKey === keys.admin) throw new Refusal(`Refusing to record ${scenario.name}: it runs as ${scenario.as}, and its key is the admin's.`);
    const sandbox = live ? undefined : await createSandbox({ seed: withEmptyOrganization(), clock: { mode: 'fixed' } });
    try {
      const baseUrl = sandbox ? await sandbox.listen() : process.env.PAGERLY_BASE_URL;
      if (sandbox && scenario.fault) sandbox.faults.inject({ ...scenario.fault, times: 1 });
      const interactions = (await record(scenario, fixture, baseUrl ?? CANONICAL_ORIGIN, apiKey!)).map((d) => normalise(d, Boolean(sandbox)));
      const secrets = Object.values(keys);
      const file: RecordingFile = { scenario: scenario.name, recordedFrom: live ? 'live' : 'sandbox', fixture, interactions: redactDeep(interactions, secrets) };
      const text = `${JSON.stringify(file, null, 2)}\n`;
      // Last line of defence: any form of a key left in the text (the fixture, a form redact missed in a value).
      if (redact(text, secrets) !== text) throw new Refusal(`Refusing to write ${scenario.name}: the recording contains an API key.`);
      writeFileSync(outputPath(scenario.name), text);
      written.push(scenario.name);
    } finally {
      await sandbox?.close();
    }
  }
  console.log(`Recorded ${written.length} scenarios from ${live ? 'the real service' : 'the sandbox'}${outputDir ? ` into ${outputDir}` : ''}: ${written.join(', ')}`);
}

try {
  await main();
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  process.stderr.write(`npm run record: ${error.message}\n`);
  process.exitCode = 2;
}
