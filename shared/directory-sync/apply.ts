import type { PagerlyClient } from '../client.ts';
import { NotFoundError } from '../errors.ts';
import { mapWithLimit } from '../map-with-limit.ts';
import { isChange, type PlannedRow } from './plan.ts';

/**
 * `planned`: a dry run, nothing was sent. `skipped`: deliberately not done (the key's owner).
 * `not-sent`: Ctrl-C came first; running the same file again does it.
 */
export type Outcome = 'created' | 'updated' | 'removed' | 'unchanged' | 'absent' | 'failed' | 'skipped' | 'not-sent' | 'planned';

export interface RowResult {
  readonly planned: PlannedRow;
  readonly outcome: Outcome;
  /** Why it failed: the API module's error, never thrown past here. */
  readonly error?: unknown;
}

const DONE = { create: 'created', update: 'updated', remove: 'removed' } as const;

/**
 * Sends the plan's changes, at most `concurrency` at a time. Every row gets a result; a
 * failed change does not stop the others (each one stands alone: one person's entry).
 * When `stop()` turns true (Ctrl-C), no further change starts, the ones in flight are
 * awaited, and the rest come out `not-sent`.
 */
export async function applyPlan(
  plan: readonly PlannedRow[],
  client: PagerlyClient,
  options: { concurrency: number; onChange?: () => void; stop?: () => boolean },
): Promise<RowResult[]> {
  const changes = plan.filter(isChange);
  const sent = await mapWithLimit(
    changes,
    options.concurrency,
    async (planned): Promise<RowResult> => {
      try {
        if (planned.kind === 'remove') {
          try {
            await client.removeDirectoryEntry({ email: planned.email });
          } catch (error) {
            // Gone since the lookup (someone else removed it): what the file asked for is true.
            if (error instanceof NotFoundError) return { planned, outcome: 'absent' };
            throw error;
          }
        } else {
          await client.upsertDirectoryEntry(planned.body);
        }
        return { planned, outcome: DONE[planned.kind] };
      } catch (error) {
        return { planned, outcome: 'failed', error };
      } finally {
        options.onChange?.();
      }
    },
    options.stop,
  );
  const byRow = new Map<PlannedRow, RowResult | undefined>(changes.map((planned, i) => [planned, sent[i]]));
  return plan.map((planned): RowResult => {
    const result = byRow.get(planned);
    if (result) return result;
    switch (planned.kind) {
      case 'lookup-failed':
        return { planned, outcome: 'failed', error: planned.error };
      case 'unchanged':
      case 'absent':
        return { planned, outcome: planned.kind };
      case 'skip':
        return { planned, outcome: 'skipped' };
      default:
        // A change Ctrl-C kept from being sent, or a row never looked up.
        return { planned, outcome: 'not-sent' };
    }
  });
}

/** A dry run: every row as planned; only rows whose lookup failed have failed. */
export function planOnly(plan: readonly PlannedRow[]): RowResult[] {
  return plan.map((planned) => {
    if (planned.kind === 'lookup-failed') return { planned, outcome: 'failed', error: planned.error };
    if (planned.kind === 'not-looked-up') return { planned, outcome: 'not-sent' };
    return { planned, outcome: 'planned' };
  });
}
