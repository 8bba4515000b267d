import zapier from 'zapier-platform-core';
import packageJson from '../package.json' with { type: 'json' };
import { operations as allOperations } from '../shared/operations/index.ts';
import type { ActionOperation, Operation, SearchOperation } from '../shared/operations/types.ts';
import { authentication } from './authentication.ts';
import { zapierCreate } from './creates/zapier-create.ts';
import { zapierSearch } from './searches/zapier-search.ts';
import { onCallChangedTrigger } from './triggers/on-call-changed.ts';
import { teamTrigger } from './triggers/team.ts';

/**
 * The Zapier integration: every create and search derived from the shared descriptions
 * (`operations`: the real ones unless a test gives others). The two triggers are written
 * for their operations (a dropdown source and a REST hook).
 */
export function zapierApp(operations: readonly Operation[] = allOperations) {
  const actions = operations.filter((op): op is ActionOperation => op.kind === 'action');
  const searches = operations.filter((op): op is SearchOperation => op.kind === 'search');
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
  };
}

export default zapierApp();
