import type { Command } from 'commander';
import type { OnCallUser } from '../../shared/schemas/on-call-user.ts';
import type { Context } from '../context.ts';
import { columns } from '../output.ts';
import { mapWithLimit } from '../map-with-limit.ts';

/** How many teams are looked up at once when no team is named. */
const TEAM_LOOKUPS = 4;

export interface TeamOnCall {
  id?: string;
  name: string;
  onCall: OnCallUser[];
}

export function registerOnCall(program: Command, ctx: Context): void {
  program
    .command('on-call')
    .description('who is on call now: in one team, or in every team')
    .option('--team <name>', 'only this team (names match ignoring letter case)')
    .addHelpText(
      'after',
      `
Without --team, every team gets a section (teams are listed, then each team is asked).
A team with nobody on call says so; a team name that names no team fails (exit 1).
With --json: {"teams": [{"id", "name", "onCall": [{"id", "name", "email", "imageurl"}]}]}
("id" only without --team).`,
    )
    .action(async (options: { team?: string }) => {
      const client = ctx.client();
      let teams: TeamOnCall[];
      if (options.team !== undefined) {
        teams = [{ name: options.team.trim(), onCall: await client.listOnCallUsers({ teamname: options.team }) }];
      } else {
        const all = await client.listTeams();
        let failure: { error: unknown } | undefined;
        const found = await mapWithLimit(
          all,
          TEAM_LOOKUPS,
          async (team) => {
            try {
              return { id: team.id, name: team.name, onCall: await client.listOnCallUsers({ teamname: team.name }) };
            } catch (error) {
              failure ??= { error };
              return undefined;
            }
          },
          () => failure !== undefined,
        );
        if (failure) throw failure.error;
        teams = found.filter((team) => team !== undefined);
      }
      ctx.out.result({ teams }, () => humanOnCall(teams, options.team !== undefined));
    });
}

function humanOnCall(teams: readonly TeamOnCall[], oneTeam: boolean): string[] {
  if (teams.length === 0) return ['No teams in this organization.'];
  // One alignment for all sections, so the e-mails line up down the page.
  const width = Math.max(0, ...teams.flatMap((t) => t.onCall.map((u) => u.name.length)));
  const lines: string[] = [];
  for (const team of teams) {
    if (oneTeam && team.onCall.length === 0) return [`Nobody is on call in ${team.name}.`];
    if (!oneTeam) lines.push(team.name);
    if (team.onCall.length === 0) lines.push('  (nobody on call)');
    for (const user of team.onCall) lines.push(...columns([[user.name.padEnd(width), user.email]], { indent: oneTeam ? '' : '  ' }));
  }
  return lines;
}
