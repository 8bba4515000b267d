import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { EndpointKey } from '../../shared/catalog/endpoints.ts';
import { MakeError } from '../../make-app/interpreter/runner/make-error.ts';
import { readRecording } from '../recordings/recording-file.ts';
import { scenarios, type Outcome, type Scenario } from '../recordings/scenarios.ts';
import { offlineNock } from '../support/offline-nock.ts';
import { runnerFor } from './support.ts';

/**
 * The recorded scenarios once more, through the generated Make app: every request Make
 * would send must be the recorded one (nock matches path, query and body), and every
 * answer must come out as Make would give it.
 */
offlineNock();

type Run = ReturnType<typeof runnerFor>;
const connection = { apiKey: 'make-replay-key-4410' };

/** How each endpoint is reached from Make: the component that calls it. */
const viaMake: Partial<Record<EndpointKey, (run: Run, input: Record<string, unknown>, fixture: { hookUrl: string }) => Promise<unknown>>> = {
  checkApiKey: (run) => run.testConnection(connection),
  listTeams: (run) => run.rpc('listTeams', { connection }),
  listOnCallUsers: (run, input) => run.module('listOnCallUsers', { connection, parameters: input }),
  // An input with an id is an update: the Update Incident module sends it; without one, Create Incident.
  createOrUpdateIncident: async (run, input) => (await run.module(input.id ? 'updateIncident' : 'createIncident', { connection, parameters: input }))[0],
  getDirectoryEntry: (run, input) => run.module('getDirectoryEntry', { connection, parameters: input }),
  upsertDirectoryEntry: (run, input) => run.module('createDirectoryEntry', { connection, parameters: input }),
  updateDirectoryPhone: (run, input) => run.module('updateDirectoryPhone', { connection, parameters: input }),
  changeDirectoryRole: (run, input) => run.module('changeDirectoryRole', { connection, parameters: input }),
  removeDirectoryEntry: (run, input) => run.module('removeDirectoryEntry', { connection, parameters: input }),
  subscribeMakeHook: (run, input, fixture) =>
    run
      .attach('onCallChanges', { connection, parameters: { teamname: input.teamname }, webhook: { id: 'replay', url: fixture.hookUrl } })
      .then((data) => ({ id: data.externalHookId })),
  unsubscribeMakeHook: (run, input) => run.detach('onCallChanges', { connection, parameters: {}, webhook: { externalHookId: input.id } }),
};

/** The Make error type each shared outcome becomes; a lookup's "not found" is no bundles instead. */
const makeType: Record<Exclude<Outcome, 'ok'>, string> = {
  AuthenticationError: 'InvalidAccessTokenError',
  PermissionError: 'InvalidConfigurationError',
  NotFoundError: 'DataError',
  RateLimitError: 'RateLimitError',
  ServerError: 'ConnectionError',
  InvalidResponseError: 'DataError',
};

const runsOnMake = (scenario: Scenario) => scenario.steps(readRecording(scenario.name).fixture).every((step) => viaMake[step.endpoint]);

describe('Make app against the recorded responses', () => {
  const covered = scenarios.filter(runsOnMake);

  it('covers every scenario whose endpoints Make uses (all but the Zapier hook)', () => {
    expect(scenarios.filter((s) => !runsOnMake(s)).map((s) => s.name)).toEqual(['zapier-hook']);
  });

  for (const scenario of covered) {
    it(`${scenario.name}`, async () => {
      const recording = readRecording(scenario.name);
      const scopes = nock.define(recording.interactions);
      const run = runnerFor();
      const outputs: unknown[] = [];
      for (const step of scenario.steps(recording.fixture)) {
        const input = (typeof step.input === 'function' ? step.input(outputs) : step.input) as Record<string, unknown>;
        const call = viaMake[step.endpoint]!(run, input, recording.fixture);
        if (step.expect === 'ok') {
          outputs.push(await call);
        } else {
          const error = await call.then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(MakeError);
          expect({ step: step.endpoint, type: (error as MakeError).type }).toEqual({ step: step.endpoint, type: makeType[step.expect] });
          outputs.push(undefined);
        }
      }
      for (const scope of scopes) expect(scope.pendingMocks()).toEqual([]);
    });
  }

  it("carries the service's words and the Retry-After into Make's messages", async () => {
    nock.define(readRecording('list-teams-invalid-key').interactions);
    const refused = await runnerFor()
      .rpc('listTeams', { connection })
      .catch((e: MakeError) => e);
    expect((refused as MakeError).message).toMatch(/^\[400\] The API key was refused\. Check it was copied whole.*Pagerly said: API Key is not valid$/);
    nock.define(readRecording('rate-limited').interactions);
    const limited = await runnerFor()
      .rpc('listTeams', { connection })
      .catch((e: MakeError) => e);
    expect((limited as MakeError).message).toBe('[429] Pagerly is rate limiting this API key; retry after 30 seconds.');
  });
});
