import type { OperationId } from '../shared/operations/types.ts';

/** A search-or-create pair (`searchOrCreates`): find the entry, create it when none is found. */
export interface FindOrCreate {
  readonly label: string;
  readonly description: string;
  readonly search: OperationId;
  readonly create: OperationId;
}

/** Zapier offers "create it if not found" on the search step. */
export const findOrCreates: readonly FindOrCreate[] = [
  {
    label: 'Find or Create Directory Entry',
    description: 'Finds a person in the on-call directory by e-mail, or creates their entry when there is none.',
    search: 'getDirectoryEntry',
    create: 'createDirectoryEntry',
  },
];
