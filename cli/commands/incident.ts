import { Option, type Command } from 'commander';
import { incidentStatuses, suggestedSeverities, type Incident, type IncidentInput } from '../../shared/schemas/incident.ts';
import type { Context } from '../context.ts';

interface IncidentOptions {
  title: string;
  severity?: string;
  description?: string;
  team?: string;
  status?: (typeof incidentStatuses)[number];
}

const CAPTURE_HELP = `
The incident's id is the only thing printed on stdout (with --json: the whole incident
as JSON), so a pipeline can keep it:
  id=$(pagerly incident create --title "Deploy of $SHA failed" --severity P2)
  pagerly incident update "$id" --title "Deploy of $SHA failed" --status resolved`;

export function registerIncident(program: Command, ctx: Context): void {
  const incident = program.command('incident').description('create or update an incident');

  incident
    .command('create')
    .description('create an incident and print its id')
    .requiredOption('--title <text>', 'what is wrong (required)')
    .option('--severity <label>', `${suggestedSeverities.join(', ')} or your own label (default: the service's, P3)`)
    .option('--description <text>', 'details')
    .option('--team <name>', 'route it to this team')
    .addHelpText('after', CAPTURE_HELP)
    .action(async (options: IncidentOptions) => {
      const created = await ctx.client().createOrUpdateIncident(inputOf(options));
      report(ctx, 'Created', created);
    });

  incident
    .command('update')
    .description('update an incident by its id: the fields given replace the stored ones, the others are kept')
    .argument('<id>', 'the id `incident create` printed')
    .requiredOption('--title <text>', 'the title (required by the API on every update; repeat it to keep it)')
    .option('--severity <label>', `${suggestedSeverities.join(', ')} or your own label`)
    .addOption(new Option('--status <status>', 'new status').choices(incidentStatuses))
    .option('--description <text>', 'details')
    .option('--team <name>', 'route it to this team')
    .addHelpText('after', `${CAPTURE_HELP}\nAn id that names no incident fails with exit 1.`)
    .action(async (id: string, options: IncidentOptions) => {
      const updated = await ctx.client().createOrUpdateIncident({ id, ...inputOf(options) });
      report(ctx, 'Updated', updated);
    });
}

function inputOf(options: IncidentOptions): IncidentInput {
  return {
    title: options.title,
    ...(options.severity === undefined ? {} : { severity: options.severity }),
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.team === undefined ? {} : { teamname: options.team }),
    ...(options.status === undefined ? {} : { status: options.status }),
  };
}

function report(ctx: Context, verb: 'Created' | 'Updated', incident: Incident): void {
  const facts = [incident.severity, incident.status, incident.teamname ? `team ${incident.teamname}` : undefined].filter(Boolean).join(', ');
  ctx.out.note(`${verb} incident "${incident.title ?? ''}"${facts ? ` (${facts})` : ''}; its id:`);
  ctx.out.result(incident, () => String(incident.id ?? '(the service gave no id)'));
}
