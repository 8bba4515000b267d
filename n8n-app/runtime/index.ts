// What the generated node classes call: the whole runtime of the n8n package, bundled into it
// as nodes/shared/runtime.js (its types: n8n-app/generator/runtime-types.ts).
export { executePagerly } from './execute.ts';
export { searchTeams } from './load-options.ts';
export { pollOnCallChanges } from './poll.ts';
