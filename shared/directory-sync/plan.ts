import type { InputOf } from '../catalog/endpoint.ts';
import type { Endpoints } from '../catalog/endpoints.ts';
import type { PagerlyClient } from '../client.ts';
import { AuthenticationError, NotFoundError } from '../errors.ts';
import type { DirectoryEntry } from '../schemas/directory-entry.ts';
import { mapWithLimit } from '../map-with-limit.ts';
import type { SyncRow } from './validate-rows.ts';

export interface FieldChange {
  readonly field: 'name' | 'phone' | 'role';
  readonly from: string | null;
  readonly to: string | null;
}

/** The upsert body a create or update sends, as the endpoint's schema types it. */
export type UpsertBody = InputOf<Endpoints['upsertDirectoryEntry']>;

/** What one row of the file comes to, after its entry was looked up. */
export type PlannedRow =
  | { readonly kind: 'create'; readonly row: number; readonly email: string; readonly body: UpsertBody }
  | {
      readonly kind: 'update';
      readonly row: number;
      readonly email: string;
      readonly body: UpsertBody;
      readonly changes: readonly FieldChange[];
      readonly current: DirectoryEntry;
    }
  | { readonly kind: 'unchanged'; readonly row: number; readonly email: string }
  | { readonly kind: 'remove'; readonly row: number; readonly email: string; readonly current: DirectoryEntry }
  | { readonly kind: 'absent'; readonly row: number; readonly email: string }
  /** The entry could not be looked up (or, `during`, something else the row needs failed): nothing is done for this row, and it counts as failed. */
  | { readonly kind: 'lookup-failed'; readonly row: number; readonly email: string; readonly error: unknown; readonly during?: string }
  /** Deliberately not done, for `reason` (the removal of the key's own owner). */
  | { readonly kind: 'skip'; readonly row: number; readonly email: string; readonly reason: string; readonly current: DirectoryEntry }
  /** Ctrl-C came before this row was looked up: nothing is done for it. */
  | { readonly kind: 'not-looked-up'; readonly row: number; readonly email: string };

export type PlanKind = PlannedRow['kind'];

/** Rows that send a change when applied. */
export const isChange = (row: PlannedRow): row is Extract<PlannedRow, { kind: 'create' | 'update' | 'remove' }> =>
  row.kind === 'create' || row.kind === 'update' || row.kind === 'remove';

/**
 * Looks up every row's current entry (a 404 is "absent") and decides what to do. Only
 * the rows of the file are looked at: the API cannot list the whole directory. A refused
 * key stops the lookups and is thrown: every further call would be refused too. When
 * `stop()` turns true (Ctrl-C), no further lookup starts; those rows are `not-looked-up`.
 */
export async function planSync(
  rows: readonly SyncRow[],
  client: PagerlyClient,
  options: { concurrency: number; onLookup?: () => void; stop?: () => boolean },
): Promise<PlannedRow[]> {
  let refused: AuthenticationError | undefined;
  const planned = await mapWithLimit(
    rows,
    options.concurrency,
    async (row): Promise<PlannedRow> => {
      try {
        const current = await lookUp(client, row.email);
        return decide(row, current);
      } catch (error) {
        if (error instanceof AuthenticationError) refused ??= error;
        return { kind: 'lookup-failed', row: row.row, email: row.email, error };
      } finally {
        options.onLookup?.();
      }
    },
    () => refused !== undefined || (options.stop?.() ?? false),
  );
  if (refused) throw refused;
  return planned.map((planned, i) => planned ?? { kind: 'not-looked-up', row: rows[i]!.row, email: rows[i]!.email });
}

async function lookUp(client: PagerlyClient, email: string): Promise<DirectoryEntry | undefined> {
  try {
    return await client.getDirectoryEntry({ email });
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The decision for one row, given its current entry (undefined: there is none). */
export function decide(row: SyncRow, current: DirectoryEntry | undefined): PlannedRow {
  const { email } = row;
  if (row.remove) return current ? { kind: 'remove', row: row.row, email, current } : { kind: 'absent', row: row.row, email };

  if (!current) {
    const body: UpsertBody = { email, name: row.name };
    if (row.phone) body.phone = row.phone;
    if (row.role) body.role = row.role;
    return { kind: 'create', row: row.row, email, body };
  }

  const changes: FieldChange[] = [];
  const currentName = text(current.name);
  const currentPhone = text(current.phone);
  if (currentName !== row.name) changes.push({ field: 'name', from: currentName, to: row.name });
  if (row.phone !== undefined && currentPhone !== row.phone) changes.push({ field: 'phone', from: currentPhone, to: row.phone });
  if (row.role !== undefined && text(current.role) !== row.role) changes.push({ field: 'role', from: text(current.role), to: row.role });
  if (changes.length === 0) return { kind: 'unchanged', row: row.row, email };

  // The upsert replaces name and phone (an omitted phone is cleared) and keeps an omitted role:
  // a file without a phone column keeps everyone's number by sending the current one.
  const phone = row.phone === undefined ? currentPhone : row.phone;
  const body: UpsertBody = { email, name: row.name };
  if (phone) body.phone = phone;
  if (row.role) body.role = row.role;
  return { kind: 'update', row: row.row, email, body, changes, current };
}
