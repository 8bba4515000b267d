import { afterEach, beforeEach, expect } from '@jest/globals';
import nock from 'nock';
import { offlineNock, unmatchedRequests } from '../support/offline-nock.ts';
import { readRecording } from '../recordings/recording-file.ts';
import { KEY } from './support.ts';

/** Replay of the HTTP recordings. Every file that imports this must call offlineNock(). */

type Definition = nock.Definition;

/** One scenario's recorded interactions (canonical origin https://api.pagerly.io). */
export const interactionsOf = (scenario: string): Definition[] => readRecording(scenario).interactions;

/** The recorded answer of one interaction, as the app should pass it on. */
export function recordedResponse(scenario: string, index = 0): unknown {
  const interaction = interactionsOf(scenario)[index];
  if (!interaction) throw new Error(`${scenario} has no interaction ${index}`);
  return interaction.response;
}

/**
 * Defines interactions for replay. Recordings hold no request headers; each interceptor here
 * also requires the connection's key and the Zapier app's user agent, so a call that sent
 * neither would not match.
 */
export function define(definitions: readonly Definition[]): nock.Scope[] {
  return nock.define(
    definitions.map((definition) => ({
      ...definition,
      reqheaders: { 'x-apikey': KEY, 'user-agent': 'pagerly-zapier' },
    })),
  );
}

/** Replays whole scenarios (or chosen interactions of one, by index). */
export const replay = (...scenarios: string[]): nock.Scope[] => define(scenarios.flatMap(interactionsOf));
export const replaySteps = (scenario: string, ...indices: number[]): nock.Scope[] =>
  define(
    indices.map((index) => {
      const interaction = interactionsOf(scenario)[index];
      if (!interaction) throw new Error(`${scenario} has no interaction ${index}`);
      return interaction;
    }),
  );

/** Every defined interceptor was used: the app made exactly the recorded requests. */
export function expectAllUsed(scopes: readonly nock.Scope[]): void {
  expect(scopes.flatMap((scope) => scope.pendingMocks())).toEqual([]);
}

export { unmatchedRequests } from '../support/offline-nock.ts';

/**
 * No network for this file (offlineNock), and after each test no request that matched no
 * interceptor: a call the app should not have made fails the test that made it.
 */
export function offlineWithNoStrayRequest(): void {
  offlineNock();
  let unmatched: ReturnType<typeof unmatchedRequests>;
  beforeEach(() => {
    unmatched = unmatchedRequests();
  });
  afterEach(() => {
    unmatched.stop();
    expect(unmatched.count).toBe(0);
  });
}
