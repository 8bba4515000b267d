import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { Argument, type Command } from 'commander';
import { peopleFormatOf, readBackDifference, renderPeople } from '../../shared/directory-import/people-file.ts';
import { writeWholeFile } from '../../shared/whole-file.ts';
import type { ReadHooks, SourceRead } from '../../shared/directory-import/reader.ts';
import { READERS } from '../../shared/directory-import/readers.ts';
import { selectPeople } from '../../shared/directory-import/select-people.ts';
import { SourceHttp } from '../../shared/directory-import/source-http.ts';
import { sourceBase, sourceKey } from '../../shared/directory-import/source-settings.ts';
import { SOURCE_IDS, SOURCES, type Source, type SourceId } from '../../shared/directory-import/sources.ts';
import { fetchSender } from '../../shared/transports/fetch-transport.ts';
import { InterruptedError, NotWrittenError, UsageError } from '../cli-errors.ts';
import { COMMAND_FLAG_DEFAULTS } from '../command-defaults.ts';
import type { Context } from '../context.ts';
import { humanImport, importDocument } from '../import-report.ts';
import { type Progress, startProgress } from '../progress.ts';
import { retryNoticeText } from '../retry-notice.ts';

/** Requests at once for what is read one person at a time (Opsgenie's contact methods). */
const CONCURRENCY = 4;

/** Extra attempts after a 429, a 5xx or a dropped connection, unless --retries says otherwise. */
const IMPORT_RETRIES = COMMAND_FLAG_DEFAULTS['directory import'].retries;
const IMPORT_BACKOFF_MS = 1000;

/** One line per source: its key's variable and its base's, with the default. */
const sourceLines = Object.values(SOURCES)
  .map(
    (source) =>
      `  ${source.id.padEnd(15)} ${source.keyVariable}; ${source.urlVariable}${source.defaultUrl ? `, default ${source.defaultUrl}` : ' (required: the API URL of the stack)'}`,
  )
  .join('\n');
const noPhones = Object.values(SOURCES).filter((source) => !source.givesPhones && !source.givesNames);
const namesOf = (sources: readonly Source[]) =>
  sources
    .map((source) => source.name)
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1');

const HELP = `
Reads every person of the source through its documented REST API, every page, with the
source's own key from the environment, and writes a people file that \`directory sync\` and
the directory GitHub Action read back exactly: e-mail, name, phone (E.164) and role.

${sourceLines}

Roles: owners and admins become admin; every other role (read-only, observer, stakeholder,
limited, a custom role) becomes user, never admin. Phones: a usable (enabled) number before a
disabled one, then the source's order; the summary lists who had several. Blocked people are
left out; people who have not accepted their invitation are left out unless --include-invited;
so is anyone whose e-mail or name the directory cannot take, or whose e-mail another has. Every
one of them is listed with why.
${
  noPhones.length
    ? `${namesOf(noPhones)} gives no phone numbers and no names: the username stands in, and the\nfile has no phone column (a sync keeps current numbers).`
    : ''
}

The file is replaced only when everything was read: a failed import (a key refused, a page
that could not be read) leaves it as it was. The key goes only to the source's base: the next
page a source links to is asked of that base, with the link's query, whatever host it names.
--retries is ${IMPORT_RETRIES} here by default (after a 429, waiting as long as the source asks,
else 1 s doubling).
With --json: {"source", "base", "file", "format", "summary", "roles", "skipped",
"severalNumbers", "notes"}. Exit codes: 3 a source key missing or refused (the variable is
named), 4 the key may not read users, 75 rate limited or the source failing (run it again),
78 a redirect elsewhere, an unknown host or a certificate, 2 bad usage, 1 anything else.`;

export function registerDirectoryImport(directory: Command, ctx: Context): void {
  directory
    .command('import')
    .description(`write a people file for directory sync from ${namesOf(Object.values(SOURCES))}`)
    .addArgument(new Argument('<source>', 'where the people are now').choices(SOURCE_IDS))
    .requiredOption('--out <file>', 'the people file to write: .yaml or .yml (YAML), .csv (CSV); replaced whole, only when the import succeeds')
    .option('--include-invited', 'also write people who have not accepted their invitation yet (else left out, and listed)')
    .addHelpText('after', HELP)
    .action(async (id: SourceId, options: { out: string; includeInvited?: boolean }, command: Command) => {
      const source = SOURCES[id];
      const format = peopleFormatOf(options.out);
      if (!format) throw new UsageError(`--out must name a .yaml, .yml or .csv file (the format comes from the extension), not "${options.out}".`);
      checkOutPath(options.out);
      const key = sourceKey(source, ctx.env);
      const base = sourceBase(source, ctx.env);
      const settings = ctx.settings(command);
      const includeInvited = options.includeInvited ?? false;

      // Ctrl-C: the requests in flight are cancelled and nothing is written.
      ctx.stopsCleanlyOnInterrupt();
      const http = new SourceHttp({
        source,
        base,
        key,
        userAgent: `pagerly-cli/${ctx.version} (directory import)`,
        sender: fetchSender({
          ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
          ...(settings.retries === undefined ? {} : { retries: settings.retries }),
          backoffMs: IMPORT_BACKOFF_MS,
          waitAskedBy: source.waitAskedBy,
          onRetry: (retry) => ctx.out.note(retryNoticeText(retry, source.name)),
          proxyEnv: ctx.env,
          trace: ctx.trace(),
          signal: ctx.signal,
        }),
      });

      const progress = progressHooks(ctx, source);
      let read: SourceRead;
      try {
        read = await READERS[id](http, { includeInvited, concurrency: CONCURRENCY, hooks: progress.hooks });
      } catch (error) {
        if (ctx.signal.aborted) throw new InterruptedError(`interrupted (Ctrl-C) while reading ${source.name}: nothing was written.`);
        throw error;
      } finally {
        progress.stop();
      }

      const selection = selectPeople(source, read.people, { includeInvited, secrets: [key] });
      if (selection.rows.length === 0) {
        throw new NotWrittenError(
          `${source.name} listed ${read.people.length} people and none can be written (${selection.skipped.length} skipped: see --json); ${options.out} was not written.`,
        );
      }
      const comment = [
        `People of ${source.name}, written by "pagerly directory import ${id}": each import replaces this file whole.`,
        `Review it, then see the plan: pagerly directory sync ${basename(options.out)} --dry-run`,
      ].join('\n');
      const text = renderPeople(selection.rows, format, { withPhone: source.givesPhones, comment });
      const difference = readBackDifference(options.out, text, selection.rows, source.givesPhones);
      if (difference !== undefined)
        throw new NotWrittenError(`The people file would not read back as written (${difference}); ${options.out} was not written.`);
      try {
        writeWholeFile(options.out, text, 0o600);
      } catch (error) {
        throw new NotWrittenError(`Cannot write ${options.out} (${(error as Error).message}); it was left as it was.`);
      }

      const document = importDocument(source, { base, file: options.out, format, requests: http.requests, notes: http.notes }, read, selection);
      ctx.out.result('directory import', document, () => humanImport(document, source, includeInvited));
    });
}

/** Refused before any request: an output path that can never be written. */
function checkOutPath(out: string): void {
  const folder = dirname(resolve(out));
  const kind = (path: string) => {
    try {
      return statSync(path).isDirectory() ? 'folder' : 'file';
    } catch {
      return 'none';
    }
  };
  if (kind(folder) !== 'folder') throw new UsageError(`--out ${out}: the folder ${folder} does not exist.`);
  if (kind(out) === 'folder') throw new UsageError(`--out ${out} is a folder: name a .yaml or .csv file.`);
}

/** Progress bars on stderr when it is a terminal: people listed (when the source says how many), then details read. */
function progressHooks(ctx: Context, source: Source): { hooks: ReadHooks; stop(): void } {
  const stream = ctx.out.progressStream();
  let listing: Progress | undefined;
  let details: Progress | undefined;
  let shown = 0;
  let bound = 0;
  return {
    hooks: {
      listed(count, total) {
        if (listing === undefined && total !== undefined) {
          listing = startProgress(stream, `Reading ${source.name}`, total);
          bound = total;
        }
        for (; shown < Math.min(count, bound); shown++) listing?.tick();
      },
      detailing(count) {
        listing?.stop();
        details = startProgress(stream, 'Reading contact methods', count);
      },
      detailed() {
        details?.tick();
      },
    },
    stop() {
      listing?.stop();
      details?.stop();
    },
  };
}
