import { isPagerlyError } from '../../shared/errors.ts';
import { commonErrorCodeOf, mostSevereExitCode } from '../exit-codes.ts';
import { columns, jsonError } from '../output.ts';
import type { JsonRow, PlanSummary, ResultSummary, SyncDocument } from '../json-documents.ts';
import type { RowResult } from '../../shared/directory-sync/apply.ts';
import type { FieldChange, PlannedRow } from '../../shared/directory-sync/plan.ts';
import type { FoundBy } from '../../shared/directory-sync/decode-text.ts';

export type { PlanSummary, ResultSummary, SyncDocument };

export const ONLY_FILE_ROWS = 'Only the people in the file were looked at: the API cannot list the whole directory, so entries not in the file are left alone.';

export const RERUN_CONVERGES = 'Running the same file again is safe and finishes the job: rows already applied come out unchanged.';

/** How the file was read: its encoding, how it was found, and the one line the plan shows when it is not UTF-8 (decode-text.ts). */
export interface FileReading {
  readonly encoding: string;
  readonly foundBy?: FoundBy;
  readonly confidence?: number;
  readonly note?: string;
}

const count = <T>(items: readonly T[], test: (item: T) => boolean) => items.filter(test).length;

export function planSummary(plan: readonly PlannedRow[]): PlanSummary {
  return {
    toCreate: count(plan, (p) => p.kind === 'create'),
    toUpdate: count(plan, (p) => p.kind === 'update'),
    toRemove: count(plan, (p) => p.kind === 'remove'),
    unchanged: count(plan, (p) => p.kind === 'unchanged'),
    alreadyAbsent: count(plan, (p) => p.kind === 'absent'),
    failed: count(plan, (p) => p.kind === 'lookup-failed'),
    skipped: count(plan, (p) => p.kind === 'skip'),
    notLookedUp: count(plan, (p) => p.kind === 'not-looked-up'),
  };
}

export function resultSummary(results: readonly RowResult[]): ResultSummary {
  return {
    created: count(results, (r) => r.outcome === 'created'),
    updated: count(results, (r) => r.outcome === 'updated'),
    removed: count(results, (r) => r.outcome === 'removed'),
    unchanged: count(results, (r) => r.outcome === 'unchanged'),
    alreadyAbsent: count(results, (r) => r.outcome === 'absent'),
    failed: count(results, (r) => r.outcome === 'failed'),
    skipped: count(results, (r) => r.outcome === 'skipped'),
    notSent: count(results, (r) => r.outcome === 'not-sent'),
  };
}

/** The errors of the rows that failed, for the exit code (3, 4, 75, then 1). */
export function failureErrors(results: readonly RowResult[]): unknown[] {
  return results.filter((r) => r.outcome === 'failed').map((r) => r.error);
}

export const syncExitCode = (results: readonly RowResult[]) => mostSevereExitCode(failureErrors(results));

// JSON

const changesOf = (planned: PlannedRow): FieldChange[] | undefined => {
  if (planned.kind === 'update') return [...planned.changes];
  if (planned.kind === 'create') {
    const { name, phone, role } = planned.body;
    return [
      { field: 'name', from: null, to: name },
      ...(phone ? [{ field: 'phone' as const, from: null, to: phone }] : []),
      ...(role ? [{ field: 'role' as const, from: null, to: role }] : []),
    ];
  }
  return undefined;
};

export function syncDocument(file: string, results: readonly RowResult[], dryRun: boolean, interrupted = false, reading?: FileReading): SyncDocument {
  const rows = results.map(({ planned, outcome, error }): JsonRow => {
    const changes = changesOf(planned);
    return {
      row: planned.row,
      email: planned.email,
      action: planned.kind,
      ...(dryRun ? {} : { outcome }),
      ...(changes ? { changes } : {}),
      ...(planned.kind === 'skip' ? { reason: planned.reason } : {}),
      ...(outcome === 'failed' ? { error: { ...jsonError(error), code: commonErrorCodeOf(error) } } : {}),
    };
  });
  const failures = results
    .filter((r) => r.outcome === 'failed')
    .map(({ planned, error }) => ({ row: planned.row, email: planned.email, action: planned.kind, ...jsonError(error), code: commonErrorCodeOf(error) }));
  return {
    file,
    ...(reading
      ? {
          encoding: reading.encoding,
          ...(reading.foundBy ? { encodingFoundBy: reading.foundBy } : {}),
          ...(reading.confidence === undefined ? {} : { encodingConfidence: reading.confidence }),
          ...(reading.note ? { note: reading.note } : {}),
        }
      : {}),
    dryRun,
    interrupted,
    summary: dryRun ? planSummary(results.map((r) => r.planned)) : resultSummary(results),
    rows,
    failures,
  };
}

// Human

const quoted = (value: string | null, field: FieldChange['field']) => (value === null ? '(none)' : field === 'name' ? `"${value}"` : value);

export function describeChanges(planned: PlannedRow): string {
  switch (planned.kind) {
    case 'create':
      return changesOf(planned)!
        .map((c) => `${c.field} ${quoted(c.to, c.field)}`)
        .join(', ');
    case 'update':
      return planned.changes.map((c) => `${c.field}: ${quoted(c.from, c.field)} → ${quoted(c.to, c.field)}`).join('; ');
    case 'remove':
      return typeof planned.current.name === 'string' ? planned.current.name : '';
    case 'absent':
      return 'already absent: nothing to do';
    case 'skip':
      return `not removed: ${planned.reason}`;
    default:
      return '';
  }
}

function reason(result: RowResult): string {
  const { error, planned } = result;
  const what = isPagerlyError(error) ? `[${error.code}] ${error.message}` : error instanceof Error ? error.message : String(error);
  if (planned.kind === 'lookup-failed') return `could not ${planned.during ?? 'look up the entry'}: ${what}`;
  return `${planned.kind}: ${what}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function failureLines(results: readonly RowResult[]): string[] {
  const failed = results.filter((r) => r.outcome === 'failed');
  if (failed.length === 0) return [];
  return [
    `Failed (${failed.length}):`,
    ...columns(
      failed.map((r) => [`row ${r.planned.row}`, r.planned.email, reason(r)]),
      { indent: '  ' },
    ),
  ];
}

/** `--dry-run`: what would be done, row by row (unchanged rows only counted). */
export function humanPlan(file: string, results: readonly RowResult[], reading?: FileReading): string[] {
  const s = planSummary(results.map((r) => r.planned));
  const shown = results.filter((r) => r.planned.kind !== 'unchanged' && r.planned.kind !== 'lookup-failed' && r.planned.kind !== 'not-looked-up');
  return [
    ...(reading?.note ? [reading.note] : []),
    `Dry run of ${file}: nothing was changed.`,
    ...columns(
      shown.map(({ planned }) => [planned.kind, `row ${planned.row}`, planned.email, describeChanges(planned)]),
      { indent: '  ' },
    ),
    `Would create ${s.toCreate}, update ${s.toUpdate}, remove ${s.toRemove}; ${s.unchanged} unchanged, ${s.alreadyAbsent} already absent${s.skipped ? `, ${s.skipped} skipped` : ''}${s.failed + s.notLookedUp ? `, ${plural(s.failed + s.notLookedUp, 'row')} not looked up` : ''}.`,
    ...failureLines(results),
    ONLY_FILE_ROWS,
  ];
}

/**
 * After applying: what was changed (and skipped), the summary, then every failure with its
 * row, e-mail and reason. Interrupted: also every row not done, and that re-running converges.
 */
export function humanResults(file: string, results: readonly RowResult[], interrupted = false, reading?: FileReading): string[] {
  const s = resultSummary(results);
  const done = results.filter((r) => r.outcome === 'created' || r.outcome === 'updated' || r.outcome === 'removed' || r.outcome === 'skipped');
  const notSent = results.filter((r) => r.outcome === 'not-sent');
  const lines = [
    ...(reading?.note ? [reading.note] : []),
    ...columns(
      done.map(({ planned, outcome }) => [outcome, `row ${planned.row}`, planned.email, describeChanges(planned)]),
      { indent: '  ' },
    ),
    `${interrupted ? 'Interrupted (Ctrl-C) while syncing' : 'Synced'} ${file}: ${s.created} created, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged, ${s.alreadyAbsent} already absent, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ''}${interrupted ? `, ${s.notSent} not sent` : ''}.`,
    ...failureLines(results),
  ];
  if (notSent.length > 0) {
    const what = ({ planned }: RowResult) => (planned.kind === 'not-looked-up' ? 'not looked up' : planned.kind);
    lines.push(
      `Not sent (${notSent.length}):`,
      ...columns(
        notSent.map((r) => [`row ${r.planned.row}`, r.planned.email, what(r)]),
        { indent: '  ' },
      ),
    );
  }
  if (interrupted) lines.push(RERUN_CONVERGES);
  else if (results.some((r) => r.outcome === 'failed' && isPagerlyError(r.error) && r.error.retryable)) {
    lines.push('Some failures were temporary: running the same file again is safe (rows already done come out unchanged).');
  }
  return lines;
}
