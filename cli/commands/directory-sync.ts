import type { Command } from 'commander';
import { InvalidFileError, SyncFailedError } from '../cli-errors.ts';
import type { Context } from '../context.ts';
import { wholeNumber } from '../settings.ts';
import { startProgress } from '../progress.ts';
import { applyPlan, planOnly } from '../sync/apply.ts';
import { isChange, planSync } from '../sync/plan.ts';
import { readSyncFile } from '../sync/read-file.ts';
import { failureErrors, humanPlan, humanResults, ONLY_FILE_ROWS, syncDocument, syncExitCode } from '../sync/report.ts';
import { validateRows } from '../sync/validate-rows.ts';

const DEFAULT_CONCURRENCY = 4;

const HELP = `
The file: CSV with a header row, or JSON (an array of objects with the same keys); the
format comes from the extension (.csv, .json), else from the content.
  email   required; identifies the entry (letter case does not matter)
  name    required unless the row removes
  phone   international format, e.g. +14155550123; an empty cell means no phone
          (it is cleared); leave the column out to keep everyone's current number
  role    admin or user; empty keeps the current role (a new entry is a user)
  remove  yes, true, 1 or x removes the entry; name, phone and role must be empty then
Rows are numbered as in a spreadsheet (the header is row 1); in JSON, the n-th object is row n.

1. Every row is checked first. Any problem (a missing column, a bad e-mail or phone, an
   unknown role, an e-mail on two rows, a row that both removes and sets fields): all of
   them are listed and the command exits 2 without sending anything.
2. Each row's current entry is looked up, and the row becomes: create (no entry yet),
   update (name, phone or role differ; each change is shown from → to), unchanged,
   remove, or already absent (a removal of an entry that is not there: nothing sent).
3. Without --dry-run the changes are sent, --concurrency at a time, with a progress bar
   when stderr is a terminal. Then a summary, and every failure with its row, e-mail and
   reason. A failed row does not stop the others.

${ONLY_FILE_ROWS}
Org admin only (the lookups are not): a non-admin key fails every change (exit 4).
Exit code when changes failed: the most severe of 3 (key refused), 4 (not allowed, e.g.
the owner's entry), 75 (temporary: run the same file again), 1 (anything else).
With --json: {"file", "dryRun", "summary", "rows": [{"row", "email", "action", "outcome",
"changes": [{"field", "from", "to"}], "error"}], "failures": [...]}.`;

export function registerDirectorySync(directory: Command, ctx: Context): void {
  directory
    .command('sync')
    .description('make the directory entries of the people in a CSV or JSON file match it')
    .argument('<file>', 'a .csv or .json file')
    .option('--dry-run', 'look up and print the plan; change nothing')
    .option('--concurrency <n>', `changes sent at once, 1 to 32 (default: ${DEFAULT_CONCURRENCY})`, wholeNumber('--concurrency', 1, 32))
    .addHelpText('after', HELP)
    .action(async (file: string, options: { dryRun?: boolean; concurrency?: number }) => {
      const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
      const read = readSyncFile(file);
      if (!read.ok) throw new InvalidFileError(file, read.problems);
      const validation = validateRows(read.rows, read.columns, read.problems);
      if (!validation.ok) throw new InvalidFileError(file, validation.problems);

      const client = ctx.client();
      const lookups = startProgress(ctx.out.progressStream(), 'Looking up', validation.rows.length);
      let plan;
      try {
        plan = await planSync(validation.rows, client, { concurrency, onLookup: lookups.tick });
      } finally {
        lookups.stop();
      }

      if (options.dryRun) {
        const results = planOnly(plan);
        ctx.out.result(syncDocument(file, results, true), () => humanPlan(file, results));
        const errors = failureErrors(results);
        if (errors.length > 0) throw new SyncFailedError(`${errors.length} of ${results.length} rows could not be looked up; the plan is incomplete.`, syncExitCode(results), errors.every(isRetryable));
        return;
      }

      const sending = startProgress(ctx.out.progressStream(), 'Syncing', plan.filter(isChange).length);
      let results;
      try {
        results = await applyPlan(plan, client, { concurrency, onChange: sending.tick });
      } finally {
        sending.stop();
      }
      ctx.out.result(syncDocument(file, results, false), () => humanResults(file, results));
      const errors = failureErrors(results);
      if (errors.length > 0) {
        throw new SyncFailedError(`${errors.length} of ${results.length} rows failed (each is listed in the report); the other rows were applied.`, syncExitCode(results), errors.every(isRetryable));
      }
    });
}

const isRetryable = (error: unknown) => (error as { retryable?: unknown } | undefined)?.retryable === true;
