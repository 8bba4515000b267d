import { describe, expect, it } from '@jest/globals';
import { teamOperation } from '../../zapier-app/triggers/team.ts';
import { offlineNock } from '../support/offline-nock.ts';
import { expectAllUsed, recordedResponse, replay } from './replay.ts';
import { appTester, authData } from './support.ts';

offlineNock();

describe('team trigger (the Team dropdown)', () => {
  it("lists the organization's teams as the service answered them", async () => {
    const scopes = replay('list-teams');
    const teams = await appTester(teamOperation.perform, { authData });
    expectAllUsed(scopes);
    expect(teams).toEqual(recordedResponse('list-teams'));
    expect((teams as { name: string }[]).map((team) => team.name)).toEqual(['Platform', 'Payments', 'Mobile']);
  });

  it('gives an organization without teams an empty list, not an error', async () => {
    const scopes = replay('list-teams-empty');
    const teams = await appTester(teamOperation.perform, { authData });
    expectAllUsed(scopes);
    expect(teams).toEqual([]);
  });
});
