import { ADMIN_ONLY_NOTE, CUSTOM_VALUE_NOTE } from '../shared/operations/fields.ts';
import { REMOVES_OWN_KEY_NOTE } from '../shared/operations/directory-actions.ts';
import type { OperationId } from '../shared/operations/types.ts';

/**
 * The MCP surface's own words where the shared texts speak to a person building a workflow in a
 * no-code editor ("for team dropdowns", "map the Incident ID", a field's label such as
 * "Removed Now"): a model reads the tool's keys and calls tools, so it gets texts written for
 * that. The shared texts stay as every other platform shows them; this is MCP's vocabulary, as
 * each surface has its own (`steps`), kept beside its names.
 */

/** Shared notes every platform adds, in the words a model reads ('' leaves one out: the tool's description already says it). */
export const mcpNotes: ReadonlyMap<string, string> = new Map([
  // The tool's description says "Org admins only" in its own sentence (tools.ts).
  [ADMIN_ONLY_NOTE, ''],
  [REMOVES_OWN_KEY_NOTE, 'Careful: removing the person whose key this server uses revokes that key, and every later call fails.'],
  [CUSTOM_VALUE_NOTE, 'Another value is accepted too.'],
]);

/** A shared note-bearing text with each note in MCP's words. */
export function withMcpNotes(text: string): string {
  let result = text;
  for (const [note, words] of mcpNotes) result = result.split(note).join(words);
  return result.replace(/ {2,}/g, ' ').trim();
}

export interface ToolWords {
  /** What the tool does, instead of the operation's description. */
  readonly description?: string;
  /** An argument's help, by field key, instead of the field's help. */
  readonly fields?: Readonly<Record<string, string>>;
  /** What a result field means, by key, instead of its label (labels are column titles, not meanings). */
  readonly outputs?: Readonly<Record<string, string>>;
}

/** What is said about "now": the service answers for this instant, and keeps neither a schedule nor a history. */
export const NOW_ONLY =
  'It answers for this moment only (as_of, UTC): the service keeps no schedule of future shifts and no history, so who will be on call later, who was on call before, or when a shift ends cannot be answered from Pagerly; say so rather than guess.';

/** Per tool, where the shared text speaks a no-code editor's language. */
export const toolWords: Partial<Record<OperationId, ToolWords>> = {
  listTeams: {
    description: "Lists the organization's teams. A team's name is what list_on_call_users and create_incident take as teamname.",
  },
  getOnCallUsers: {
    description: `Finds the people on call right now in one team, or in every team, each with their team. Nobody on call is an empty list, not an error. ${NOW_ONLY}`,
    // One result per person and team, each carrying its team's summary: the labels ("On Call in
    // This Team: Names") are column titles, and a model could read them as the person's own.
    outputs: {
      team: 'The team this person is on call in (someone on call in two teams is one result in each).',
      on_call_names: "Everyone on call in this result's team, comma-separated (the same on every result of that team), this person included.",
      on_call_emails: "The e-mails of everyone on call in this result's team, comma-separated, in the order of on_call_names.",
      on_call_count: "How many people are on call in this result's team, this person included.",
    },
  },
  createIncident: {
    description: 'Creates a new incident and pages the people on call. Keep the id it returns: update_incident needs it to change or resolve the incident.',
  },
  updateIncident: {
    fields: {
      id: 'The id of the incident to change, as create_incident returned it (or as the person gives it). Pagerly cannot list incidents, so it cannot be looked up.',
      title:
        "The incident's title (up to 255 characters). The service needs it on every update: pass the current title (from create_incident's result, or ask the person) to keep it.",
    },
  },
  removeDirectoryEntry: {
    outputs: {
      removed: 'true when this call removed the person; false when they were already gone (not an error).',
    },
    description: `Removes a person from the on-call directory, by e-mail: they leave every rotation and their API keys stop working. The owner cannot be removed. Someone already removed is not an error: the result has removed: false. ${withMcpNotes(REMOVES_OWN_KEY_NOTE)}`,
  },
};
