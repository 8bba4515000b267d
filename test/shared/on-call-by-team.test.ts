import { describe, expect, it } from '@jest/globals';
import { ServerError } from '../../shared/errors.ts';
import { everyoneOnCall, onCallByTeam, TEAM_LOOKUPS } from '../../shared/on-call/by-team.ts';
import { changesBetween, nextSnapshot } from '../../shared/on-call/changes.ts';

const teams = [
  { id: 't1', name: 'Platform' },
  { id: 't2', name: 'Payments' },
  { id: 't3', name: 'Mobile' },
];
const alan = { id: 'u1', name: 'Alan', email: 'alan@acme.example', imageurl: null };
const edsger = { id: 'u2', name: 'Edsger', email: 'edsger@acme.example', imageurl: null };

/** A reader whose Payments answer fails; it records how many team reads were under way at once. */
function reader(failing = 'Payments') {
  let open = 0;
  const peaks: number[] = [];
  const asked: (string | undefined)[] = [];
  return {
    asked,
    peaks,
    client: {
      redact: (text: string) => text,
      listTeams: async () => teams,
      listOnCallUsers: async (input?: { teamname?: string }) => {
        asked.push(input?.teamname);
        peaks.push(++open);
        await new Promise((resolve) => setTimeout(resolve, 5));
        open--;
        if (input?.teamname === failing) throw new ServerError('The service failed (HTTP 502).', { status: 502 });
        return input?.teamname === 'Platform' ? [alan, edsger] : input?.teamname === 'Mobile' ? [alan] : [];
      },
    },
  };
}

describe('everyone on call, team by team', () => {
  it('asks each team by name, a few at a time, and keeps one failure beside the others', async () => {
    const { client, asked, peaks } = reader();
    const answers = await onCallByTeam(client);
    expect(asked).toEqual(['Platform', 'Payments', 'Mobile']);
    expect(Math.max(...peaks)).toBeLessThanOrEqual(TEAM_LOOKUPS);
    const { onCall, failed } = everyoneOnCall(answers);
    expect(onCall.map((u) => `${u.name}@${u.team.name}`)).toEqual(['Alan@Platform', 'Edsger@Platform', 'Alan@Mobile']);
    expect(failed.map((f) => [f.team.name, f.error.message])).toEqual([['Payments', 'The service failed (HTTP 502).']]);
  });

  it('a named team is matched ignoring case and spaces, and only it is asked', async () => {
    const { client, asked } = reader();
    const answers = await onCallByTeam(client, { team: '  platform ' });
    expect(asked).toEqual(['Platform']);
    expect(answers).toHaveLength(1);
  });
});

describe('changes between two looks', () => {
  const at = new Date('2026-11-02T09:00:00Z');
  it('a failed team keeps what was known of it: no one goes off call because of a passing failure', () => {
    const first = nextSnapshot(undefined, [{ team: teams[0]!, onCall: [alan] }]);
    const failed = nextSnapshot(first, [{ team: teams[0]!, error: new Error('502') }]);
    expect(failed).toEqual(first);
    expect(changesBetween(first, failed, at)).toEqual([]);
  });

  it('without a previous look nothing changed; a new team brings its people on, a gone team takes them off', () => {
    const first = nextSnapshot(undefined, [{ team: teams[0]!, onCall: [alan] }]);
    expect(changesBetween(undefined, first, at)).toEqual([]);
    const second = nextSnapshot(first, [{ team: teams[1]!, onCall: [edsger] }]);
    expect(changesBetween(first, second, at)).toEqual([
      { type: 'on_call_ended', team: { id: 't1', name: 'Platform' }, user: alan, detected_at: '2026-11-02T09:00:00.000Z' },
      { type: 'on_call_started', team: { id: 't2', name: 'Payments' }, user: edsger, detected_at: '2026-11-02T09:00:00.000Z' },
    ]);
  });

  it('a renamed team is the same team (by id); its people did not change', () => {
    const first = nextSnapshot(undefined, [{ team: teams[0]!, onCall: [alan] }]);
    const renamed = nextSnapshot(first, [{ team: { id: 't1', name: 'Core Platform' }, onCall: [alan] }]);
    expect(changesBetween(first, renamed, at)).toEqual([]);
  });
});
