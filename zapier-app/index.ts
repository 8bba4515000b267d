import zapier, { defineApp } from 'zapier-platform-core';
// In the bundle this is the app's own package.json, not the repository's (packaging/bundle.ts).
import packageJson from '../package.json' with { type: 'json' };
import { operations as allOperations } from '../shared/operations/index.ts';
import type { ActionOperation, HookOperation, Operation, SearchOperation } from '../shared/operations/types.ts';
import { authentication } from './authentication.ts';
import { findOrCreates as allFindOrCreates, type FindOrCreate } from './find-or-creates.ts';
import { zapierDisplay, zapierName, zapierText } from './operation-names.ts';
import { zapierCreate } from './creates/zapier-create.ts';
import { zapierSearch } from './searches/zapier-search.ts';
import { onCallChangedTrigger } from './triggers/on-call-changed.ts';
import { teamTrigger } from './triggers/team.ts';

/**
 * The Zapier integration: every create and search derived from the shared descriptions
 * (`operations` and their find-or-create pairs: the real ones unless a test gives others). The two triggers are written
 * for their operations (a dropdown source and a REST hook).
 */
export function zapierApp(operations: readonly Operation[] = allOperations, findOrCreates: readonly FindOrCreate[] = allFindOrCreates) {
  const actions = operations.filter((op): op is ActionOperation => op.kind === 'action');
  const searches = operations.filter((op): op is SearchOperation => op.kind === 'search');
  const offered = (id: string, list: readonly Operation[]) => list.find((op) => op.id === id);
  const pairs = findOrCreates.flatMap((pair) => {
    const search = offered(pair.search, searches);
    const create = offered(pair.create, actions);
    // Offered while both of its steps are: a pair with a retiring step is hidden as that step is.
    const hidden = search?.retiring || create?.retiring ? { hidden: true } : {};
    return search && create ? [{ ...pair, search: zapierName(search).key, create: zapierName(create).key, hidden }] : [];
  });
  // The hook trigger is written for its operation; a retiring one is hidden as the others are.
  const hook = operations.find((op): op is HookOperation => op.kind === 'hook');
  const onCallChanged = hook?.retiring ? { ...onCallChangedTrigger, display: zapierDisplay(hook) } : onCallChangedTrigger;
  return defineApp({
    version: packageJson.version,
    platformVersion: zapier.version,
    authentication,
    triggers: {
      [teamTrigger.key]: teamTrigger,
      [onCallChanged.key]: onCallChanged,
    },
    creates: Object.fromEntries(actions.map((op) => [zapierName(op).key, zapierCreate(op)])),
    searches: Object.fromEntries(searches.map((op) => [zapierName(op).key, zapierSearch(op)])),
    // Zapier offers "create it if not found" on the search step; the search's key names the pair (schema: SearchOrCreateSchema).
    searchOrCreates: Object.fromEntries(
      pairs.map((pair) => [
        pair.search,
        {
          key: pair.search,
          display: { label: pair.label, description: zapierText(pair.description), ...pair.hidden },
          search: pair.search,
          create: pair.create,
        },
      ]),
    ),
  });
}

export default zapierApp();
