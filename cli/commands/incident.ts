import { Option, type Command } from 'commander';
import { incidentStatuses, suggestedSeverities, type Incident, type IncidentInput } from '../../shared/schemas/incident.ts';
import { createIncident, updateIncident } from '../../shared/operations/create-incident.ts';
import { operationSummaries } from '../../shared/operations/summaries.ts';
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
as JSON). A 2xx means it was done: where the service gives no readable id, nothing is
printed, stderr says so and the exit code is still 0 (--json: "id": null and a note).
A pipeline keeps the id:
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
      // Its errors name the create alone, not everything POST /o/incident does.
      const created = await ctx.client(operationSummaries(createIncident)).createOrUpdateIncident(inputOf(options));
      report(ctx, 'incident create', 'Created', created, idOf(created), options.title);
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
      const updated = await ctx.client(operationSummaries(updateIncident)).createOrUpdateIncident({ id, ...inputOf(options) });
      // The id is the one the caller gave; an answer that leaves it out does not change which incident it is.
      report(ctx, 'incident update', 'Updated', updated, idOf(updated) ?? id, options.title);
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

/** The incident's id, when the answer carries a usable one (not empty, on one line). */
function idOf(incident: Incident): string | undefined {
  const id = incident.id?.trim();
  return id && !/[\r\n]/.test(id) ? id : undefined;
}

/**
 * stdout gets the id alone (or, with --json, the answer with its `id`); every remark goes to
 * stderr. A create the service answered 2xx was done (assumption `created-id`): without an id
 * that can be printed it still exits 0, prints nothing on stdout, so a pipeline never keeps a
 * remark as an id, and says why on stderr; --json carries `id: null` and the note.
 */
function report(
  ctx: Context,
  command: 'incident create' | 'incident update',
  verb: 'Created' | 'Updated',
  answer: Incident,
  id: string | undefined,
  title: string,
): void {
  // The remark names the title that was sent when the answer does not carry one.
  const incident = { title, ...answer };
  const facts = [incident.severity, incident.status, incident.teamname ? `team ${incident.teamname}` : undefined].filter(Boolean).join(', ');
  const what = `incident "${incident.title ?? ''}"${facts ? ` (${facts})` : ''}`;
  if (id === undefined) {
    const note = typeof answer.note === 'string' && answer.note !== '' ? answer.note : `The service gave the ${what} an id that is not on one line.`;
    ctx.out.note(`${verb} ${what}, but no id is printed: ${note} Look for its id in the dashboard; do not create it again.`);
    ctx.out.result(command, { ...answer, id: answer.id || null, note }, () => []);
    return;
  }
  ctx.out.note(`${verb} ${what}; its id:`);
  ctx.out.result(command, answer, () => id);
}
