import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { columns } from '../output.ts';

export function registerTeams(program: Command, ctx: Context): void {
  program
    .command('teams')
    .description('list the teams of the organization')
    .addHelpText('after', '\nHuman output: one team a line, name then id. With --json: {"teams": [{"id", "name"}]}.')
    .action(async () => {
      const teams = await ctx.client().listTeams();
      ctx.out.result('teams', { teams }, () => (teams.length === 0 ? 'No teams in this organization.' : columns(teams.map((t) => [t.name, t.id]))));
    });
}
