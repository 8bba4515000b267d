import { describe, expect, it } from '@jest/globals';
import { closeMatches, MAX_CLOSE_MATCHES, noTeamNamed } from '../../shared/on-call/close-matches.ts';
import { onCallByTeam } from '../../shared/on-call/by-team.ts';
import { NotFoundError } from '../../shared/errors.ts';

/** An organization the size of a large company: 2,000 teams, a few with names alike. */
const many = [
  ...Array.from({ length: 1_995 }, (_, i) => ({ id: `t${i}`, name: `Team ${String(i).padStart(4, '0')}` })),
  { id: 'p1', name: 'Payments' },
  { id: 'p2', name: 'Payments EU' },
  { id: 'p3', name: 'Payroll' },
  { id: 'p4', name: 'Platform' },
  { id: 'p5', name: 'Mobile Payments' },
];
const names = many.map((team) => team.name);

describe('close matches of an unknown team name', () => {
  it('puts names that start with what was typed first (the nearest first), then names that hold it, then typos', () => {
    expect(closeMatches('pay', names)).toEqual(['Payroll', 'Payments', 'Payments EU', 'Mobile Payments']);
    expect(closeMatches('Paymnts', names)).toEqual(['Payments']);
    expect(closeMatches('  PLATFROM ', names)).toEqual(['Platform']);
  });

  it('names at most ten however many are close, and none when nothing is', () => {
    expect(closeMatches('team', names)).toHaveLength(MAX_CLOSE_MATCHES);
    expect(closeMatches('Observability', names)).toEqual([]);
    expect(closeMatches('', names)).toEqual([]);
  });

  it('at 2,000 teams the error stays one short sentence, not the list of every team', () => {
    const message = noTeamNamed('Team', many);
    expect(message.startsWith('No team named "Team". Close matches: "Team 0000", "Team 0001"')).toBe(true);
    expect(message.match(/"Team \d{4}"/g)).toHaveLength(MAX_CLOSE_MATCHES);
    expect(message.length).toBeLessThan(300);
    expect(noTeamNamed('Observability', many)).toBe('No team named "Observability". None of the organization\'s 2,000 teams has a close name.');
    expect(noTeamNamed('Ops', [])).toBe('No team named "Ops". The organization has no teams.');
  });

  it('quotes names escaped and cut, so a name cannot break the sentence nor make it long', () => {
    const odd = [{ id: 'x', name: `Pay "the" team\n${'x'.repeat(5_000)}` }];
    const message = noTeamNamed(`Pay "the"\n`, odd);
    expect(message).toContain(String.raw`No team named "Pay \"the\"". Close match: "Pay \"the\" team\nxx`);
    expect(message).not.toContain('\n');
    expect(message.length).toBeLessThan(200);
  });

  it('is the error every surface reading team by team gives (onCallByTeam), key removed', async () => {
    const client = {
      redact: (text: string) => text.replaceAll('Payments', '[redacted]'),
      listTeams: async () => many,
      listOnCallUsers: async () => [],
    };
    const failure = await onCallByTeam(client, { team: 'Paymnts' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NotFoundError);
    expect((failure as Error).message).toBe('No team named "Paymnts". Close match: "[redacted]".');
  });
});
