import zapier from 'zapier-platform-core';
import packageJson from '../package.json' with { type: 'json' };
import { findOrCreates as allFindOrCreates, operations as allOperations } from '../shared/operations/index.ts';
import type { ActionOperation, Operation, SearchOperation } from '../shared/operations/types.ts';
import { authentication } from './authentication.ts';
import { zapierCreate } from './creates/zapier-create.ts';
import { zapierSearch } from './searches/zapier-search.ts';
import { onCallChangedTrigger } from './triggers/on-call-changed.ts';
import { teamTrigger } from './triggers/team.ts';

/**
 * The Zapier integration: every create and search derived from the shared descriptions
 * (`operations` and their find-or-create pairs: the real ones unless a test gives others). The two triggers are written
 * for their operations (a dropdown source and a REST hook).
 */
export function zapierApp(operations: readonly Operation[] = allOperations, findOrCreates: typeof allFindOrCreates = allFindOrCreates) {
  const actions = operations.filter((op): op is ActionOperation => op.kind === 'action');
  const searches = operations.filter((op): op is SearchOperation => op.kind === 'search');
  const pairs = findOrCreates.filter((pair) => searches.includes(pair.search) && actions.includes(pair.create));
  return {
    version: packageJson.version,
    platformVersion: zapier.version,
    authentication,
    triggers: {
      [teamTrigger.key]: teamTrigger,
      [onCallChangedTrigger.key]: onCallChangedTrigger,
    },
    creates: Object.fromEntries(actions.map((op) => [op.key, zapierCreate(op)])),
    searches: Object.fromEntries(searches.map((op) => [op.key, zapierSearch(op)])),
    // Zapier offers "create it if not found" on the search step; the search's key names the pair (schema: SearchOrCreateSchema).
    searchOrCreates: Object.fromEntries(
      pairs.map((pair) => [
        pair.search.key,
        { key: pair.search.key, display: { label: pair.label, description: pair.description }, search: pair.search.key, create: pair.create.key },
      ]),
    ),
  };
}

export default zapierApp();
