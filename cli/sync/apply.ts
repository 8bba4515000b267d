import type { PagerlyClient } from '../../shared/client.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { mapWithLimit } from '../pool.ts';
import { isChange, type PlannedRow } from './plan.ts';

/** `planned`: a dry run, nothing was sent. */
export type Outcome = 'created' | 'updated' | 'removed' | 'unchanged' | 'absent' | 'failed' | 'planned';

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
 */
export async function applyPlan(
  plan: readonly PlannedRow[],
  client: PagerlyClient,
  options: { concurrency: number; onChange?: () => void },
): Promise<RowResult[]> {
  const changes = plan.filter(isChange);
  const sent = await mapWithLimit(changes, options.concurrency, async (planned): Promise<RowResult> => {
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
  });
  const byRow = new Map<PlannedRow, RowResult | undefined>(changes.map((planned, i) => [planned, sent[i]]));
  return plan.map((planned): RowResult => {
    const result = byRow.get(planned);
    if (result) return result;
    if (planned.kind === 'lookup-failed') return { planned, outcome: 'failed', error: planned.error };
    if (planned.kind === 'unchanged' || planned.kind === 'absent') return { planned, outcome: planned.kind };
    return { planned, outcome: 'failed', error: new Error('was not sent') };
  });
}

/** A dry run: every row as planned; only rows whose lookup failed have failed. */
export function planOnly(plan: readonly PlannedRow[]): RowResult[] {
  return plan.map((planned) => (planned.kind === 'lookup-failed' ? { planned, outcome: 'failed', error: planned.error } : { planned, outcome: 'planned' }));
}
