import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { TEAM_LABEL_FIELD } from '../../zapier-app/fields/team-dropdown.ts';
import { teamOperation } from '../../zapier-app/triggers/team.ts';
import { offlineNock } from '../support/offline-nock.ts';
import { expectAllUsed, recordedResponse, replay } from './replay.ts';
import { App, appTester, authData } from './support.ts';

offlineNock();

type Team = { id: string; name: string; [TEAM_LABEL_FIELD]: string };

describe('team trigger (the Team dropdown)', () => {
  it("lists the organization's teams as the service answered them, each with the label its option shows", async () => {
    const scopes = replay('list-teams');
    const teams = (await appTester(teamOperation.perform, { authData })) as Team[];
    expectAllUsed(scopes);
    const answered = recordedResponse('list-teams') as { id: string; name: string }[];
    expect(teams).toEqual(answered.map((team) => ({ ...team, [TEAM_LABEL_FIELD]: team.name })));
    expect(teams.map((team) => team.name)).toEqual(['Platform', 'Payments', 'Mobile']);
  });

  it('gives an organization without teams an empty list, not an error', async () => {
    const scopes = replay('list-teams-empty');
    const teams = await appTester(teamOperation.perform, { authData });
    expectAllUsed(scopes);
    expect(teams).toEqual([]);
  });

  /*
   * Zapier's dynamic dropdown is `trigger.value.label`: the trigger's key, the field whose value
   * a Zap stores in bundle.inputData, and the field "shown on the left of the dropdown in bold"
   * (docs.zapier.com/platform/build-cli/dynamic-dropdowns; zapier-platform-schema's
   * RefResourceSchema, `{resource_key}.{foreign_key}(.{human_label_key})`).
   */
  describe('a hostile team name', () => {
    const hostile = [
      { id: 't1', name: 'Ops \u202Esyap\u202C', shown: 'Ops \\u202esyap\\u202c' },
      { id: 't2', name: 'Pay\u200Bments', shown: 'Pay\\u200bments' },
      { id: 't3', name: '\u001b]52;c;cm0gLXJm\u0007Mobile\u001b[2J', shown: '\\x1b]52;c;cm0gLXJm\\x07Mobile\\x1b[2J' },
      { id: 't4', name: 'فريق\u200Cالدعم', shown: 'فريق\u200Cالدعم' },
    ];

    it('shows its invisible controls in the label and keeps the value the name as it came', async () => {
      const scope = nock('https://api.pagerly.io')
        .get('/pagerly/o/zapier/allteams')
        .reply(
          200,
          hostile.map(({ id, name }) => ({ id, name })),
        );
      const teams = (await appTester(teamOperation.perform, { authData })) as Team[];
      expect(scope.isDone()).toBe(true);
      // The value a Zap stores and the service takes: the exact name, whatever it holds.
      expect(teams.map((team) => team.name)).toEqual(hostile.map((team) => team.name));
      // The label: shown by the shared rule, the joiner of an Arabic word kept.
      expect(teams.map((team) => team[TEAM_LABEL_FIELD])).toEqual(hostile.map((team) => team.shown));
    });

    it('is what every team field shows: the dropdown reads its value from `name` and its label from the shown name', () => {
      const definitions = [...Object.values(App.triggers), ...Object.values(App.creates), ...Object.values(App.searches)];
      const sources = definitions.flatMap((definition) =>
        ((definition.operation.inputFields ?? []) as { dynamic?: string }[]).flatMap((field) => (field.dynamic ? [field.dynamic] : [])),
      );
      expect(sources).toEqual(Array(4).fill(`team.name.${TEAM_LABEL_FIELD}`));
      expect(teamOperation.outputFields.map((field) => field.key)).toEqual(['id', 'name', TEAM_LABEL_FIELD]);
    });
  });
});
