import { appendFileSync, readFileSync } from 'node:fs';
import * as core from '@actions/core';
import { createClient } from '../../shared/client.ts';
import { applyPlan, planOnly, type RowResult } from '../../shared/directory-sync/apply.ts';
import { keepKeyOwner, OWNER_SKIP_REASON } from '../../shared/directory-sync/keep-key-owner.ts';
import { planSync } from '../../shared/directory-sync/plan.ts';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { describeRowProblem } from '../../shared/directory-sync/row-problem.ts';
import { validateRows } from '../../shared/directory-sync/validate-rows.ts';
import { isPagerlyError } from '../../shared/errors.ts';
import { redact } from '../../shared/redact.ts';
import { fetchTransport } from '../../shared/transports/fetch-transport.ts';
import { showInvisibleControls } from '../../shared/visible-controls.ts';
import { keyForms, oneLine } from '../runtime/main.ts';
import { commentMarker, countResults, renderSync } from './markdown.ts';
import { DIRECTORY_MODES, DIRECTORY_RUN_MODES, type DirectoryRunMode } from './modes.ts';
import { upsertComment } from './pull-request-comment.ts';

export type DirectoryCore = Pick<typeof core, 'getInput' | 'setSecret' | 'setOutput' | 'setFailed' | 'info' | 'warning'>;

/** Changes sent at once, as the CLI's default. */
const CONCURRENCY = 4;

/** What the run does, from the event: a pull request plans, a push to the default branch applies. */
export function modeOf(given: string, env: NodeJS.ProcessEnv, event: Record<string, unknown>): DirectoryRunMode {
  if (given !== '' && !(DIRECTORY_MODES as readonly string[]).includes(given)) {
    throw new Error(`The \`mode\` input is "${oneLine(given, 40)}": it takes ${DIRECTORY_MODES.slice(0, -1).join(', ')} or ${DIRECTORY_MODES.at(-1)}.`);
  }
  if ((DIRECTORY_RUN_MODES as readonly string[]).includes(given)) return given as DirectoryRunMode;
  if (env['GITHUB_EVENT_NAME'] !== 'push') return 'plan';
  const repository = event['repository'] as { default_branch?: unknown } | undefined;
  const defaultBranch = typeof repository?.default_branch === 'string' ? repository.default_branch : undefined;
  return defaultBranch !== undefined && env['GITHUB_REF'] === `refs/heads/${defaultBranch}` ? 'apply' : 'plan';
}

function readEvent(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const path = env['GITHUB_EVENT_PATH'];
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * One run: mask the key first; read and check the whole file (nothing is sent for a file with a
 * problem); look up every row; then plan (a pull request: the summary and one comment, nothing
 * changed) or apply (a push to the default branch: the summary of what was done, the step failed
 * if any row failed). Outputs: the counts and `changed`.
 */
export async function runDirectorySync(io: DirectoryCore, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const apiKey = io.getInput('api-key');
  for (const form of keyForms(apiKey)) io.setSecret(form);
  const secrets = [apiKey, apiKey.trim()];
  const why = (error: unknown) => redact(isPagerlyError(error) ? error.message : error instanceof Error ? error.message : String(error), secrets);
  if (apiKey.trim() === '') {
    io.setFailed(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression syntax, for the workflow author to copy.
      'No API key: the `api-key` input is empty. Set it from a secret (`api-key: ${{ secrets.PAGERLY_API_KEY }}`); a secret that is not defined, or one a run from a fork is not given, reads as empty.',
    );
    return;
  }
  try {
    const file = io.getInput('file') || 'people.csv';
    const event = readEvent(env);
    const mode = modeOf(io.getInput('mode'), env, event);

    const read = readSyncFile(file, undefined, { encoding: io.getInput('encoding') || undefined, encodingOption: 'the `encoding` input' });
    const validation = read.ok ? validateRows(read.rows, read.columns, read.problems) : { ok: false as const, problems: read.problems };
    if (!validation.ok) {
      const problems = validation.problems.slice(0, 50).map((problem) => `- ${oneLine(describeRowProblem(problem), 500)}`);
      const more = validation.problems.length > 50 ? `\n…and ${validation.problems.length - 50} more` : '';
      io.setFailed(redact(`${file} was not synced; nothing was sent. Fix these and push again:\n${problems.join('\n')}${more}`, secrets));
      return;
    }

    if (read.ok && read.note) io.info(oneLine(read.note, 500));

    const client = createClient({ apiKey, baseUrl: io.getInput('base-url') || undefined, transport: fetchTransport({ proxyEnv: env }) });
    const plan = await keepKeyOwner(
      await planSync(validation.rows, client, { concurrency: CONCURRENCY }),
      client,
      OWNER_SKIP_REASON.replace(/remove them with .*$/, "remove them by hand in Pagerly, or sync with another admin's key"),
    );
    const results: RowResult[] = mode === 'plan' ? planOnly(plan) : await applyPlan(plan, client, { concurrency: CONCURRENCY });
    const note = read.ok ? read.note : undefined;
    const markdown = redact(renderSync(results, { file, mode, note, why }), secrets);

    const counts = countResults(results);
    io.setOutput('created', String(counts.create));
    io.setOutput('updated', String(counts.update));
    io.setOutput('removed', String(counts.remove));
    io.setOutput('unchanged', String(counts.unchanged));
    io.setOutput('failed', String(counts.failed));
    io.setOutput('changed', String(counts.create + counts.update + counts.remove > 0));
    io.setOutput('mode', mode);

    const summaryFile = env['GITHUB_STEP_SUMMARY'];
    if (summaryFile) appendFileSync(summaryFile, markdown);
    io.info(
      `${mode === 'plan' ? 'Plan' : 'Applied'} for ${oneLine(file)}: ${counts.create} create, ${counts.update} update, ${counts.remove} remove, ${counts.unchanged} unchanged, ${counts.skipped} skipped, ${counts.failed} failed.`,
    );

    const pullRequest = (event['pull_request'] as { number?: unknown } | undefined)?.number;
    if (mode === 'plan' && typeof pullRequest === 'number' && io.getInput('comment') !== 'false') {
      const token = io.getInput('github-token');
      const repository = env['GITHUB_REPOSITORY'];
      if (!token || !repository)
        io.warning('No comment on the pull request: the `github-token` input or GITHUB_REPOSITORY is empty. The plan is in the job summary.');
      else {
        io.setSecret(token);
        try {
          const posted = await upsertComment(
            { apiUrl: env['GITHUB_API_URL'] || 'https://api.github.com', repository, pullRequest, token },
            commentMarker(file),
            markdown,
          );
          io.info(`The plan is on the pull request (comment ${posted.id}, ${posted.action}).`);
        } catch (error) {
          // The plan stands in the summary: a comment that could not be written is a warning.
          io.warning(redact(`No comment on the pull request: ${error instanceof Error ? error.message : String(error)}`, [...secrets, token]));
        }
      }
    }
    if (counts.failed > 0) io.setFailed(`${counts.failed} row(s) ${mode === 'plan' ? 'could not be looked up' : 'failed'}; the job summary says why for each.`);
  } catch (error) {
    // The service's reason, shown and never applied, as in every line of the log.
    io.setFailed(showInvisibleControls(why(error)));
  }
}

/** The entry GitHub runs (through index.ts) and `@github/local-action` calls. */
export const run = (): Promise<void> => runDirectorySync(core);
