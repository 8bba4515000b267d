// What the generated node classes call: the whole runtime of the n8n package.
export { executePagerly } from './execute.ts';
export { loadTeams } from './load-options.ts';
export { pollOnCallChanges } from './poll.ts';
