import { type Command, Option } from 'commander';
import { InterruptedError, InvalidFileError, SyncFailedError, UsageError } from '../cli-errors.ts';
import type { Context } from '../context.ts';
import { wholeNumber } from '../settings.ts';
import { startProgress } from '../progress.ts';
import { applyPlan, planOnly } from '../../shared/directory-sync/apply.ts';
import { isChange, planSync } from '../../shared/directory-sync/plan.ts';
import { ENCODING_EXAMPLES, encodingNamed } from '../../shared/directory-sync/decode-text.ts';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { keepKeyOwner } from '../../shared/directory-sync/keep-key-owner.ts';
import { failureErrors, humanPlan, humanResults, ONLY_FILE_ROWS, RERUN_CONVERGES, resultSummary, syncDocument, syncExitCode } from '../sync/report.ts';
import { validateRows } from '../../shared/directory-sync/validate-rows.ts';

const DEFAULT_CONCURRENCY = 4;

const HELP = `
The file: CSV with a header row, JSON (an array of objects with the same keys) or YAML
(a list of people with the same keys); the format comes from the extension (.csv, .json,
.yaml, .yml), else from the content. CSV columns are separated by commas, semicolons or
tabs, found from the header row. Any file is read as UTF-8 (with or without a BOM), UTF-16
with a BOM (Excel's "Unicode text"), or, when it is not valid UTF-8, in the code page
(Windows-1250...1258, Shift_JIS, GB18030, EUC-KR, Big5, DOS 437/850/852/866, KOI8-R,
ISO-8859-x, Mac Roman) whose reading scores clearly best as names (the plan says which);
when another comes close, the file is refused, showing each close reading of the first
names that differ: --encoding names the right one. Bytes no code page reads as names, and
a file whose lines are in two code pages, are refused too. UTF-8 encoded twice ("JosÃ©") is
repaired when exact, else refused. A file holding a character that could not be read
(U+FFFD) is refused: nothing is sent.
  email   required; identifies the entry (letter case does not matter)
  name    required unless the row removes
  phone   international format, e.g. +14155550123; an empty cell means no phone
          (it is cleared); leave the column out to keep everyone's current number
  role    admin or user; empty keeps the current role (a new entry is a user)
  remove  yes, true, 1 or x removes the entry; name, phone and role must be empty then
Rows are numbered as in a spreadsheet (the header is row 1); in JSON and YAML, the n-th item is row n.

1. Every row is checked first. Any problem (a missing column, a bad e-mail or phone, an
   unknown role, an e-mail on two rows, a row that both removes and sets fields): all of
   them are listed and the command exits 2 without sending anything.
2. Each row's current entry is looked up, and the row becomes: create (no entry yet),
   update (name, phone or role differ; each change is shown from → to), unchanged,
   remove, or already absent (a removal of an entry that is not there: nothing sent).
3. Without --dry-run the changes are sent, --concurrency at a time, with a progress bar
   when stderr is a terminal. Then a summary, and every failure with its row, e-mail and
   reason. A failed row does not stop the others.

The person the API key acts as is never removed: that would revoke the key mid-run. Their
remove row is reported as skipped, with why (the key's owner is asked once, only when the
file removes someone).
Ctrl-C stops sending: the requests in flight finish, then the report says what was
applied and what was not (exit 130); running the same file again finishes the job.

${ONLY_FILE_ROWS}
Org admin only (the lookups are not): a non-admin key fails every change (exit 4).
Exit code when changes failed: the most severe of 3 (key refused), 4 (not allowed, e.g.
the owner's entry), 75 (temporary: run the same file again), 1 (anything else).
With --json: {"file", "encoding", "encodingFoundBy", "dryRun", "interrupted", "summary", "rows": [{"row", "email", "action",
"outcome", "changes": [{"field", "from", "to"}], "reason", "error"}], "failures": [...]}.`;

export function registerDirectorySync(directory: Command, ctx: Context): void {
  directory
    .command('sync')
    .description('make the directory entries of the people in a CSV, JSON or YAML file match it')
    .argument('<file>', 'a .csv, .json or .yaml file')
    .option('--dry-run', 'look up and print the plan; change nothing')
    .option('--encoding <name>', `the file's encoding, e.g. ${ENCODING_EXAMPLES} (default: found from the file)`, encodingFlag)
    .addOption(new Option('--concurrency <n>', 'changes sent at once, 1 to 32').argParser(wholeNumber('--concurrency', 1, 32)).default(DEFAULT_CONCURRENCY))
    .addHelpText('after', HELP)
    .action(async (file: string, options: { dryRun?: boolean; concurrency: number; encoding?: string }) => {
      const { concurrency } = options;
      const read = readSyncFile(file, undefined, { encoding: options.encoding });
      if (!read.ok) throw new InvalidFileError(file, read.problems);
      const validation = validateRows(read.rows, read.columns, read.problems);
      if (!validation.ok) throw new InvalidFileError(file, validation.problems);
      const about = {
        encoding: read.encoding,
        foundBy: read.foundBy,
        ...(read.confidence === undefined ? {} : { confidence: read.confidence }),
        ...(read.note ? { note: read.note } : {}),
      };

      const client = ctx.client();
      // Ctrl-C: no new request starts, the ones in flight finish, and the report says what was done.
      ctx.stopsCleanlyOnInterrupt();
      const interrupted = () => ctx.signal.aborted;
      const onInterrupt = () =>
        ctx.out.note('Stopping (Ctrl-C): waiting for the requests in flight, then a report of what was applied. Ctrl-C again stops at once.');
      ctx.signal.addEventListener('abort', onInterrupt, { once: true });
      try {
        const lookups = startProgress(ctx.out.progressStream(), 'Looking up', validation.rows.length);
        let plan: Awaited<ReturnType<typeof planSync>>;
        try {
          plan = await planSync(validation.rows, client, { concurrency, onLookup: lookups.tick, stop: interrupted });
          if (!interrupted()) plan = await keepKeyOwner(plan, client);
        } finally {
          lookups.stop();
        }

        if (options.dryRun) {
          const results = planOnly(plan);
          ctx.out.result('directory sync', syncDocument(file, results, true, interrupted(), about), () => humanPlan(file, results, about));
          if (interrupted()) throw new InterruptedError(`interrupted (Ctrl-C) while looking up: the plan is incomplete; nothing was changed.`);
          const errors = failureErrors(results);
          if (errors.length > 0)
            throw new SyncFailedError(
              `${errors.length} of ${results.length} rows could not be looked up; the plan is incomplete.`,
              syncExitCode(results),
              errors.every(isRetryable),
            );
          return;
        }

        // Interrupted during the lookups: nothing is sent, every change comes out not sent.
        const sending = startProgress(ctx.out.progressStream(), 'Syncing', interrupted() ? 0 : plan.filter(isChange).length);
        let results: Awaited<ReturnType<typeof applyPlan>>;
        try {
          results = await applyPlan(plan, client, { concurrency, onChange: sending.tick, stop: interrupted });
        } finally {
          sending.stop();
        }
        const stopped = interrupted();
        ctx.out.result('directory sync', syncDocument(file, results, false, stopped, about), () => humanResults(file, results, stopped, about));
        if (stopped) {
          const { created, updated, removed, notSent } = resultSummary(results);
          throw new InterruptedError(`interrupted (Ctrl-C): ${created + updated + removed} changes applied, ${notSent} rows not sent. ${RERUN_CONVERGES}`);
        }
        const errors = failureErrors(results);
        if (errors.length > 0) {
          throw new SyncFailedError(
            `${errors.length} of ${results.length} rows failed (each is listed in the report); the other rows were applied.`,
            syncExitCode(results),
            errors.every(isRetryable),
          );
        }
      } finally {
        ctx.signal.removeEventListener('abort', onInterrupt);
      }
    });
}

/** A name a decoder knows (`latin1`, `UTF-16LE`, ...), as its WHATWG name; anything else is a usage error. */
function encodingFlag(value: string): string {
  const name = encodingNamed(value);
  if (name === undefined) throw new UsageError(`--encoding "${value}" is not an encoding a decoder knows: name one such as ${ENCODING_EXAMPLES}`);
  return name;
}

const isRetryable = (error: unknown) => (error as { retryable?: unknown } | undefined)?.retryable === true;
