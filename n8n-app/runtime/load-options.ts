import { operations } from '../../shared/operations/index.ts';
import type { ListOperation } from '../../shared/operations/types.ts';
import { showInvisibleControls } from '../../shared/visible-controls.ts';
import { pagerlyFor } from './client.ts';
import { toN8nError } from './errors.ts';
import type { ListSearchResult, N8nErrorClasses, N8nLoadOptionsContext } from './n8n-api.ts';

const teamList = (): ListOperation => {
  const list = operations.find((op): op is ListOperation => op.kind === 'list');
  if (!list) throw new Error('shared/operations has no list operation for the team resource locator');
  return list;
};

/**
 * The team resource locator's "From List" (`listSearch`): value and label from the fields the
 * shared description names, narrowed to the names containing what the user typed. The service
 * answers the whole list at once, so there is no page token to hand back. The label is service
 * text on n8n's page: its invisible controls are shown (shared/visible-controls.ts); the value
 * stays the name as it came, which is what the service takes.
 */
export async function searchTeams(context: N8nLoadOptionsContext, classes: N8nErrorClasses, filter?: string): Promise<ListSearchResult> {
  const list = teamList();
  try {
    const teams = await (await pagerlyFor(context)).send(list.endpoint, {});
    // The list endpoint's documented shape is a list of objects (the client checked it).
    const rows = Array.isArray(teams) ? teams.filter((team): team is Record<string, unknown> => team !== null && typeof team === 'object') : [];
    const wanted = filter?.trim().toLowerCase() ?? '';
    const results = rows
      .map((team) => ({ name: String(team[list.labelField] ?? ''), value: String(team[list.valueField] ?? '') }))
      .filter((team) => !wanted || team.name.toLowerCase().includes(wanted))
      .map((team) => ({ ...team, name: showInvisibleControls(team.name) }));
    return { results };
  } catch (error) {
    throw toN8nError(error, context.getNode(), classes);
  }
}
