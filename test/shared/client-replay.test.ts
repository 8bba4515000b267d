import { describe, expect, it } from '@jest/globals';
import { offlineNock } from '../support/offline-nock.ts';
import nock from 'nock';
type Definition = nock.Definition;
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { isPagerlyError, type RateLimitError } from '../../shared/errors.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { readRecording, recordingNames } from '../recordings/recording-file.ts';
import { scenarios, type Scenario } from '../recordings/scenarios.ts';

// Headers are not matched on replay; this key only has to be well-formed.
const REPLAY_KEY = 'replay-key-00000000';

offlineNock();

interface StepResult {
  outcome: string;
  value?: unknown;
  error?: unknown;
}

/** Replays one scenario's recording through the client; every recorded request must be made. */
async function replay(scenario: Scenario): Promise<{ results: StepResult[]; interactions: Definition[] }> {
  const recording = readRecording(scenario.name);
  const scopes = nock.define(recording.interactions);
  const client = createNodeClient({ apiKey: REPLAY_KEY, baseUrl: String(recording.interactions[0]?.scope ?? ''), retries: 0 });
  const results: StepResult[] = [];
  const outputs: unknown[] = [];
  for (const step of scenario.steps(recording.fixture)) {
    const input = typeof step.input === 'function' ? step.input(outputs) : step.input;
    const result = await client.send(step.endpoint, input).then(
      (value): StepResult => ({ outcome: 'ok', value }),
      (error: unknown): StepResult => ({ outcome: isPagerlyError(error) ? error.name : `unexpected ${String(error)}`, error }),
    );
    outputs.push(result.value);
    results.push(result);
  }
  for (const scope of scopes) expect(scope.pendingMocks()).toEqual([]);
  return { results, interactions: recording.interactions };
}

const scenario = (name: string) => scenarios.find((s) => s.name === name)!;

describe('typed client against recorded responses', () => {
  it('has a recording for every scenario and no stale one', () => {
    expect(recordingNames()).toEqual(scenarios.map((s) => s.name).sort());
  });

  for (const each of scenarios) {
    it(`${each.name}: sends the recorded requests and reads each answer as expected`, async () => {
      const { results, interactions } = await replay(each);
      const steps = each.steps(readRecording(each.name).fixture);
      expect(results.map((r) => r.outcome)).toEqual(steps.map((s) => s.expect));
      results.forEach((result, index) => {
        const interaction = interactions[index]!;
        if (result.outcome === 'ok') {
          // A create's result says whether a note came with its id (assumption `created-id`): none, with one.
          const creates = endpoints[steps[index]!.endpoint].createsUnless !== undefined;
          expect(result.value).toEqual(creates ? { ...(interaction.response as object), note: '' } : interaction.response);
        } else {
          expect((result.error as { status?: number }).status).toBe(interaction.status);
        }
      });
    });
  }
});

describe('what the recorded answers mean', () => {
  it('nobody on call, and an organization without teams, are empty lists, not errors', async () => {
    expect((await replay(scenario('on-call-nobody'))).results[0]!.value).toEqual([]);
    expect((await replay(scenario('list-teams-empty'))).results[0]!.value).toEqual([]);
  });

  it('on-call users have the documented four fields, a missing image as null', async () => {
    const users = (await replay(scenario('on-call-every-team'))).results.slice(1).flatMap((step) => step.value as Record<string, unknown>[]);
    expect(users.length).toBeGreaterThan(1);
    for (const user of users) expect(Object.keys(user).sort()).toEqual(['email', 'id', 'imageurl', 'name']);
    expect(users.some((u) => u.imageurl === null) || users.every((u) => typeof u.imageurl === 'string')).toBe(true);
  });

  it("the invalid key is an authentication error carrying the service's words", async () => {
    const { error } = (await replay(scenario('list-teams-invalid-key'))).results[0]!;
    expect((error as Error).message).toContain('"API Key is not valid"');
  });

  it('a 429 carries its Retry-After', async () => {
    const { error } = (await replay(scenario('rate-limited'))).results[0]!;
    expect((error as RateLimitError).retryAfterSeconds).toBe(30);
  });

  it('an incident is updated and resolved through the id its creation returned', async () => {
    const [created, updated, resolved] = (await replay(scenario('incident-create-update-resolve'))).results.map((r) => r.value as Record<string, unknown>);
    expect(updated!.id).toBe(created!.id);
    expect(updated!.severity).toBe('P1');
    expect(resolved!.status).toBe('resolved');
  });

  it('a phone number typed with spaces is sent in E.164', async () => {
    const { interactions } = await replay(scenario('directory-lifecycle'));
    expect(interactions[0]!.body).toMatchObject({ phone: '+14155550199' });
  });
});
