import type { RowResult } from '../../shared/directory-sync/apply.ts';
import type { FieldChange, PlannedRow } from '../../shared/directory-sync/plan.ts';
import { showInvisibleControls } from '../../shared/visible-controls.ts';
import type { DirectoryRunMode } from './modes.ts';

/**
 * The plan and the applied result as GitHub Markdown: the job summary and the pull request's
 * comment. Everything from the file or the service is data: `inert` turns it into text GitHub
 * shows as typed, never HTML, a mention, an issue link or a broken table.
 */

/** GitHub refuses a comment body over 65,536 characters; the rendering stays under it with room. */
export const MAX_MARKDOWN_CHARS = 60_000;

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '|': '&#124;',
  '@': '@&#8203;',
  '#': '#&#8203;',
};

/**
 * A value as one inert table cell: HTML's `&`, `<` and `>` as entities (no tag, no comment
 * closed early), `|` as an entity (no new column), every line break and control character as a
 * space (no new row), bidi and zero-width controls shown as escapes by the rule of every
 * surface (`\u202e`: shared/visible-controls.ts), Markdown's punctuation backslash-escaped (no
 * emphasis, link, image or code span), and a mention's `@` (one not inside an address) and
 * every `#` followed by a zero-width space, as Dependabot and Renovate write them, so `@octocat`
 * notifies nobody and `#12` links no issue. Cut to `max` characters.
 */
export function inert(text: string, max = 120): string {
  const flat = text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');
  const cut = [...flat].length > max ? `${[...flat].slice(0, max).join('')}…` : flat;
  // One pass, so no escape is escaped again (an entity's `&` or `#`); a control's escape has its backslash escaped, so it shows.
  return showInvisibleControls(cut).replace(/[&<>|\\`*_{}[\]()!~:#]|(?<![\w.+-])@/g, (char) => ESCAPES[char] ?? `\\${char}`);
}

/** The hidden line that finds the comment again on the next push: one comment per file synced. */
export const commentMarker = (file: string) => `<!-- pagerly-directory-sync ${encodeURIComponent(file)} -->`;

export interface Counts {
  create: number;
  update: number;
  remove: number;
  unchanged: number;
  skipped: number;
  failed: number;
}

/** What a row came to: in a plan, its planned kind; applied, what was done. */
function bucket(result: RowResult): keyof Counts {
  switch (result.outcome) {
    case 'planned':
      return plannedBucket(result.planned);
    case 'created':
      return 'create';
    case 'updated':
      return 'update';
    case 'removed':
      return 'remove';
    case 'unchanged':
    case 'absent':
      return 'unchanged';
    case 'skipped':
      return 'skipped';
    default:
      // failed, or not sent
      return 'failed';
  }
}

function plannedBucket(planned: PlannedRow): keyof Counts {
  switch (planned.kind) {
    case 'create':
    case 'update':
    case 'remove':
    case 'unchanged':
      return planned.kind;
    case 'absent':
      return 'unchanged';
    case 'skip':
      return 'skipped';
    default:
      return 'failed';
  }
}

export function countResults(results: readonly RowResult[]): Counts {
  const counts: Counts = { create: 0, update: 0, remove: 0, unchanged: 0, skipped: 0, failed: 0 };
  for (const result of results) counts[bucket(result)] += 1;
  return counts;
}

const LABEL: Record<keyof Counts, string> = {
  create: 'create',
  update: 'update',
  remove: 'remove',
  unchanged: 'unchanged',
  skipped: 'skipped',
  failed: '**failed**',
};

const shown = (value: string | null) => (value === null ? '*(none)*' : inert(value, 80));
const change = ({ field, from, to }: FieldChange) => `${field}: ${shown(from)} → ${shown(to)}`;

function person(planned: PlannedRow): string {
  const name = planned.kind === 'create' || planned.kind === 'update' ? planned.body.name : 'current' in planned ? planned.current.name : undefined;
  const email = inert(planned.email, 120);
  return typeof name === 'string' && name.trim() !== '' ? `${inert(name, 80)} (${email})` : email;
}

function detail(result: RowResult, why: (error: unknown) => string): string {
  const { planned } = result;
  if (bucket(result) === 'failed') return inert(result.error === undefined ? 'not sent' : why(result.error), 300);
  if (planned.kind === 'update') return planned.changes.map(change).join('<br>');
  if (planned.kind === 'create') {
    const fields = [`name: ${shown(planned.body.name)}`];
    if (planned.body.phone) fields.push(`phone: ${shown(planned.body.phone)}`);
    if (planned.body.role) fields.push(`role: ${shown(planned.body.role)}`);
    return fields.join('<br>');
  }
  if (planned.kind === 'skip') return inert(planned.reason, 300);
  return '';
}

export interface RenderOptions {
  readonly file: string;
  /** `plan`: a pull request's dry run; `apply`: what a push to the default branch did. */
  readonly mode: DirectoryRunMode;
  /** The reader's one line about the file's encoding, if it guessed. */
  readonly note?: string | undefined;
  /** A failed row's reason, the key taken out. */
  readonly why: (error: unknown) => string;
  readonly max?: number;
}

/**
 * The Markdown: the marker, a heading, one line of counts, then a table of every row that
 * changes, was skipped or failed (unchanged rows only counted). Rows past the size bound are
 * counted in a last line instead of shown, so a directory of any size makes a comment GitHub
 * takes; the outputs and the log still carry the totals.
 */
export function renderSync(results: readonly RowResult[], options: RenderOptions): string {
  const counts = countResults(results);
  const max = options.max ?? MAX_MARKDOWN_CHARS;
  const verb = options.mode === 'plan' ? 'Plan' : 'Applied';
  const lines = [
    commentMarker(options.file),
    `### Pagerly directory: ${verb.toLowerCase()} for \`${options.file.replace(/[`\p{Cc}]/gu, '')}\``,
    '',
    options.mode === 'plan'
      ? `Merging applies: **${counts.create} to create, ${counts.update} to update, ${counts.remove} to remove**; ${counts.unchanged} unchanged.` +
        (counts.skipped ? ` ${counts.skipped} skipped.` : '') +
        (counts.failed ? ` **${counts.failed} could not be looked up.**` : '') +
        ' Nothing in the directory has changed.'
      : `**${counts.create} created, ${counts.update} updated, ${counts.remove} removed**; ${counts.unchanged} unchanged.` +
        (counts.skipped ? ` ${counts.skipped} skipped.` : '') +
        (counts.failed ? ` **${counts.failed} failed.**` : ''),
  ];
  if (options.note) lines.push('', `> ${inert(options.note, 300)}`);
  const shownRows = results.filter((result) => bucket(result) !== 'unchanged');
  if (shownRows.length) lines.push('', '| | Person | Change |', '| --- | --- | --- |');
  let size = lines.join('\n').length + 200;
  let left = shownRows.length;
  for (const result of shownRows) {
    const row = `| ${LABEL[bucket(result)]} | ${person(result.planned)} | ${detail(result, options.why)} |`;
    if (size + row.length + 1 > max) break;
    lines.push(row);
    size += row.length + 1;
    left -= 1;
  }
  if (left > 0) lines.push('', `…and ${left} more row(s), not shown to keep this under GitHub's size limit; the counts above hold them all.`);
  return `${lines.join('\n')}\n`;
}
