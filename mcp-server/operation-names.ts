import { inStepWords, operationById, type StepVocabulary } from '../shared/operations/index.ts';
import type { Operation, OperationId } from '../shared/operations/types.ts';
import { snakeCase, titleWords } from '../surfaces/id-words.ts';

/**
 * How the MCP server names an operation: its tool's name (snake_case, short: clients prefix it
 * with the server's name) and title (what a host shows), or, for the hook, why it is no tool.
 */
export type McpName = { readonly tool: string; readonly title: string; readonly asksFirst?: true } | { readonly noTool: string };

/**
 * `asksFirst`: the tool asks the person through the client (elicitation) before it acts, where
 * the client can ask: removing someone (their keys stop working for good) and changing a role
 * (who may manage the directory and make keys). Other writes are confirmed by the model, as the
 * server's instructions ask: a question before every incident would be noise at 3 a.m.
 *
 * Public contract: a tool's name is what models, prompts and hosts' allow-lists refer to, so
 * renaming one breaks them. `satisfies` makes a missing or extra operation a type error.
 */
export const mcpNames = {
  listTeams: { tool: 'list_teams', title: 'List teams' },
  onCallChanged: {
    noTool: 'an MCP tool answers a call and cannot wait for a change; ask who is on call (list_on_call_users) instead',
  },
  createIncident: { tool: 'create_incident', title: 'Create an incident' },
  updateIncident: { tool: 'update_incident', title: 'Update an incident' },
  createDirectoryEntry: { tool: 'create_directory_entry', title: 'Add a person to the directory' },
  updateDirectoryEntry: { tool: 'update_directory_entry', title: 'Update a directory entry' },
  updateDirectoryPhone: { tool: 'update_directory_phone', title: "Update a person's phone number" },
  changeDirectoryRole: { tool: 'change_directory_role', title: "Change a person's role", asksFirst: true },
  removeDirectoryEntry: { tool: 'remove_directory_entry', title: 'Remove a person from the directory', asksFirst: true },
  getOnCallUsers: { tool: 'list_on_call_users', title: 'Who is on call' },
  getDirectoryEntry: { tool: 'get_directory_entry', title: 'Look up a directory entry' },
} as const satisfies Record<OperationId, McpName>;

/**
 * An operation's MCP names: its entry, or for a description outside the shipped list (which the
 * type check lets through without one) the convention: snake_case tool name, title-case title;
 * a hook is never a tool.
 */
export function mcpName(operation: Pick<Operation, 'id' | 'kind'>): McpName {
  if (Object.hasOwn(mcpNames, operation.id)) return mcpNames[operation.id];
  if (operation.kind === 'hook') return mcpNames.onCallChanged;
  return { tool: snakeCase(operation.id), title: titleWords(operation.id) };
}

/** A model calls tools, by their names: "the result of create_incident". */
export const mcpSteps: StepVocabulary = {
  step: (id) => {
    const name = mcpName(operationById(id));
    return 'tool' in name ? `the result of ${name.tool}` : 'the on-call trigger of a no-code platform';
  },
  thisStep: 'the tool',
};
/** A shared text in the words a model reads. */
export const mcpText = (text: string) => inStepWords(text, mcpSteps);
