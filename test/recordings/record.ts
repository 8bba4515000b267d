// `npm run record`: runs every scenario of scenarios.ts through the typed client and writes
// what went over the wire to test/recordings/<scenario>.json.
//
// Without PAGERLY_API_KEY: against a fresh in-process sandbox per scenario (fixed clock and
// ids, so re-recording writes the same bytes). With it: against the real service; see README.md here.
// PAGERLY_RECORD_DIR writes the files into another folder (to review a live recording first).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
type Definition = nock.Definition;
import { createNodeClient } from '../../shared/node-client.ts';
import { isPagerlyError } from '../../shared/errors.ts';
import { createSandbox, demoKeys } from '../../sandbox/index.ts';
import { withEmptyOrganization, EMPTY_ORG_KEY } from './empty-org-seed.ts';
import { CANONICAL_ORIGIN, KEPT_HEADERS, recordingPath, type RecordingFile } from './recording-file.ts';
import { scenarios, type Fixture, type Identity, type Scenario } from './scenarios.ts';

const live = Boolean(process.env.PAGERLY_API_KEY);
const outputDir = process.env.PAGERLY_RECORD_DIR;
const outputPath = (scenario: string) => (outputDir ? join(outputDir, `${scenario}.json`) : recordingPath(scenario));

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
    if (!value) throw new Error(`Recording against the real service needs ${name}; see test/recordings/README.md.`);
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
const keysFor = (live: boolean): Record<Identity, string | undefined> =>
  live
    ? { admin: process.env.PAGERLY_API_KEY, user: process.env.PAGERLY_USER_API_KEY ?? process.env.PAGERLY_API_KEY, invalid: invalidKey, emptyOrg: undefined }
    : { admin: demoKeys.acmeAdmin, user: demoKeys.acmeUser, invalid: invalidKey, emptyOrg: EMPTY_ORG_KEY };

function normalise(definition: Definition, fromSandbox: boolean): Definition {
  const headers = Object.entries((definition as { rawHeaders?: Record<string, string> }).rawHeaders ?? {})
    .filter(([name]) => KEPT_HEADERS.includes(name.toLowerCase()));
  const { reqheaders: _dropped, ...rest } = definition as Definition & { reqheaders?: unknown };
  return { ...rest, scope: fromSandbox ? CANONICAL_ORIGIN : definition.scope, rawHeaders: Object.fromEntries(headers) } as Definition;
}

async function record(scenario: Scenario, fixture: Fixture, baseUrl: string, apiKey: string): Promise<Definition[]> {
  const client = createNodeClient({ apiKey, baseUrl, retries: 0 });
  nock.recorder.clear();
  nock.recorder.rec({ dont_print: true, output_objects: true });
  const outputs: unknown[] = [];
  try {
    for (const step of scenario.steps(fixture)) {
      const input = typeof step.input === 'function' ? step.input(outputs) : step.input;
      const outcome = await client.call(step.endpoint, input as never).then(
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
  } finally {
    nock.restore();
  }
  return nock.recorder.play() as Definition[];
}

async function main() {
  if (outputDir) mkdirSync(outputDir, { recursive: true });
  const fixture = live ? liveFixture() : sandboxFixture;
  const keys = keysFor(live);
  const written: string[] = [];
  for (const scenario of scenarios) {
    const apiKey = keys[scenario.as];
    if (live && (scenario.sandboxOnly || (scenario.writes && process.env.PAGERLY_RECORD_WRITES !== '1') || !apiKey)) continue;
    const sandbox = live ? undefined : await createSandbox({ seed: withEmptyOrganization(), clock: { mode: 'fixed' } });
    try {
      const baseUrl = sandbox ? await sandbox.listen() : process.env.PAGERLY_BASE_URL;
      if (sandbox && scenario.fault) sandbox.faults.inject({ ...scenario.fault, times: 1 });
      const interactions = (await record(scenario, fixture, baseUrl ?? CANONICAL_ORIGIN, apiKey!)).map((d) => normalise(d, Boolean(sandbox)));
      const file: RecordingFile = { scenario: scenario.name, recordedFrom: live ? 'live' : 'sandbox', fixture, interactions };
      const text = `${JSON.stringify(file, null, 2)}\n`;
      for (const key of Object.values(keys)) {
        if (key && text.includes(key)) throw new Error(`Refusing to write ${scenario.name}: the recording contains an API key.`);
      }
      writeFileSync(outputPath(scenario.name), text);
      written.push(scenario.name);
    } finally {
      await sandbox?.close();
    }
  }
  console.log(`Recorded ${written.length} scenarios from ${live ? 'the real service' : 'the sandbox'}${outputDir ? ` into ${outputDir}` : ''}: ${written.join(', ')}`);
}

await main();
