import type { Command } from 'commander';
import { onCallByTeam, type TeamOnCall } from '../../shared/on-call/by-team.ts';
import { InvalidInputError } from '../../shared/errors.ts';
import type { Context } from '../context.ts';
import { commonErrorCodeOf, exitCodeFor, mostSevereExitCode } from '../exit-codes.ts';
import { columns } from '../output.ts';
import { jsonShowingControls } from '../../shared/visible-controls.ts';
import { forTerminal } from '../terminal-text.ts';
import { parseInterval } from '../watch/interval.ts';
import { watchOnCall } from '../watch/watch-on-call.ts';
import { ON_CALL_CHANGE_TYPES, type OnCallChange } from '../../shared/on-call/changes.ts';
import { commandDrain, shutdownOption } from '../shutdown.ts';
import type { JsonLines } from '../json-documents.ts';

/** The shortest pause between looks: a watcher that asks more often only loads the service. */
const MIN_INTERVAL_MS = 1_000;

export function registerOnCall(program: Command, ctx: Context): void {
  const onCall = program
    .command('on-call')
    .description('who is on call now: in one team, or in every team')
    .option('--team <name>', 'only this team (names match ignoring letter case)')
    .addHelpText(
      'after',
      `
The teams are listed, then each team is asked (a few at a time); a team name that names no
team fails and names at most 10 teams with a close name. A team that could not be read is reported beside
the others, and the exit code is that of its failure.
With --json: {"teams": [{"id", "name", "onCall": [{"id", "name", "email", "imageurl"}]}]}
(a team that could not be read has "error": {"code", "message"} instead of "onCall").`,
    )
    .action(async (options: { team?: string }) => {
      const answers = await onCallByTeam(ctx.client(), { team: options.team });
      const failures = answers.flatMap((answer) => ('error' in answer ? [answer.error] : []));
      const teams = answers.map((answer) =>
        'error' in answer
          ? { id: answer.team.id, name: answer.team.name, error: { code: commonErrorCodeOf(answer.error), message: answer.error.message } }
          : { id: answer.team.id, name: answer.team.name, onCall: answer.onCall },
      );
      ctx.out.result('on-call', { teams }, () => humanOnCall(answers, options.team !== undefined));
      // The others are printed; the run still fails, with the exit code of the worst failure.
      const worst = mostSevereExitCode(failures);
      const failure = failures.find((error) => exitCodeFor(error) === worst);
      if (failure) throw failure;
    });

  onCall
    .command('watch')
    .description('print a JSON line each time someone goes on or off call, until Ctrl-C')
    .option('--team <name>', 'only this team (names match ignoring letter case)')
    .option('--interval <time>', 'time between looks: 90, 90s, 5m (at least 1s)', '60s')
    .option('--state <file>', 'keep the last look here, so a restart prints what changed meanwhile')
    .option('--once', 'look once and exit: with --state, prints what changed since the last run (for cron)')
    .addOption(shutdownOption())
    .addHelpText(
      'after',
      `
Each look costs one request for the teams and one per team watched. The first look (with no
state file) prints nothing: it learns who is on call. Each change is one line on stdout:
{"type": ${Object.values(ON_CALL_CHANGE_TYPES)
        .map((type) => `"${type}"`)
        .join(' | ')}, "team": {"id", "name"}, "user": {...}, "detected_at"}
A failure the service may get over (rate limit, 5xx, network) is said on stderr and the next
look tries again; a bad key or an unknown team ends the watch. SIGTERM or Ctrl-C stops it (exit 0):
the look under way finishes and is saved first (for at most --shutdown-timeout seconds; a look cut
then is not saved, and the next run reports its changes); a second signal stops it at once.
With --once --json: one document, {"changes": [...]}.`,
    )
    .action(async (_options: unknown, command: Command) => {
      // `--team` is also the parent's option: commander hands it to whichever command comes first.
      const options = command.optsWithGlobals<{ team?: string; interval: string; state?: string; once?: boolean; shutdownTimeout?: number }>();
      const intervalMs = parseInterval(options.interval);
      if (intervalMs === undefined || intervalMs < MIN_INTERVAL_MS) {
        throw new InvalidInputError(
          `--interval ${options.interval} is not a time of at least 1s: give e.g. 30s, 5m or 90.`,
          [{ field: 'interval', problem: 'must be a time of at least 1s' }],
          'input',
        );
      }
      // Watching, each change is a JSON line as it is seen; one look with --json is one document.
      const collected: OnCallChange[] = [];
      const document = Boolean(options.once) && ctx.out.json;
      const drain = commandDrain(ctx, 'pagerly on-call watch', 'the watch', options.shutdownTimeout);
      try {
        await watchOnCall({
          client: ctx.client(undefined, drain.deadline),
          team: options.team,
          intervalMs,
          stateFile: options.state,
          once: options.once ?? false,
          signal: drain.stopping,
          cut: drain.deadline,
          track: (look) => drain.track(look),
          emit: (change: JsonLines['on-call watch']) => (document ? collected.push(change) : ctx.out.writeOut(`${jsonShowingControls(change)}\n`)),
          note: (text) => ctx.out.note(text),
        });
      } finally {
        drain.dispose();
      }
      if (document) ctx.out.result('on-call watch', { changes: collected }, () => []);
    });
}

function humanOnCall(answers: readonly TeamOnCall[], oneTeam: boolean): string[] {
  if (answers.length === 0) return ['No teams in this organization.'];
  // One alignment for all sections, so the e-mails line up down the page.
  const width = Math.max(0, ...answers.flatMap((a) => ('error' in a ? [] : a.onCall.map((u) => forTerminal(u.name).length))));
  const lines: string[] = [];
  for (const answer of answers) {
    if ('error' in answer) {
      lines.push(answer.team.name, `  (could not be read: ${answer.error.message})`);
      continue;
    }
    if (oneTeam && answer.onCall.length === 0) return [`Nobody is on call in ${answer.team.name}.`];
    if (!oneTeam) lines.push(answer.team.name);
    if (answer.onCall.length === 0) lines.push('  (nobody on call)');
    for (const user of answer.onCall) lines.push(...columns([[forTerminal(user.name).padEnd(width), user.email]], { indent: oneTeam ? '' : '  ' }));
  }
  return lines;
}
