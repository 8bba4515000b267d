import zapier from 'zapier-platform-core';
import packageJson from '../package.json' with { type: 'json' };
import { findOrCreates, operations } from '../shared/operations/index.ts';
import type { ActionOperation, SearchOperation } from '../shared/operations/types.ts';
import { authentication } from './authentication.ts';
import { createFrom } from './creates/action.ts';
import { searchFrom } from './searches/search.ts';
import { onCallChangedTrigger } from './triggers/on-call-changed.ts';
import { teamTrigger } from './triggers/team.ts';

const actions = operations.filter((op): op is ActionOperation => op.kind === 'action');
const searches = operations.filter((op): op is SearchOperation => op.kind === 'search');

/** The Zapier integration: every operation derived from the shared descriptions. */
const App = {
  version: packageJson.version,
  platformVersion: zapier.version,
  authentication,
  triggers: {
    [teamTrigger.key]: teamTrigger,
    [onCallChangedTrigger.key]: onCallChangedTrigger,
  },
  creates: Object.fromEntries(actions.map((op) => [op.key, createFrom(op)])),
  searches: Object.fromEntries(searches.map((op) => [op.key, searchFrom(op)])),
  // Zapier offers "create it if not found" on the search step; the search's key names the pair (schema: SearchOrCreateSchema).
  searchOrCreates: Object.fromEntries(
    findOrCreates.map((pair) => [pair.search.key, { key: pair.search.key, display: { label: pair.label, description: pair.description }, search: pair.search.key, create: pair.create.key }]),
  ),
};

export default App;
