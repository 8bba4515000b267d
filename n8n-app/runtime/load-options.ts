import { operations } from '../../shared/operations/index.ts';
import type { ListOperation } from '../../shared/operations/types.ts';
import { pagerlyFor } from './client.ts';
import { toN8nError } from './errors.ts';
import type { DropdownOption, N8nErrorClasses, N8nLoadOptionsContext } from './n8n-api.ts';

const teamList = (): ListOperation => {
  const list = operations.find((op): op is ListOperation => op.kind === 'list');
  if (!list) throw new Error('shared/operations has no list operation for the team dropdown');
  return list;
};

/** The team dropdown (`loadOptions`): value and label from the fields the shared description names. */
export async function loadTeams(context: N8nLoadOptionsContext, classes: N8nErrorClasses): Promise<DropdownOption[]> {
  const list = teamList();
  try {
    const teams = await (await pagerlyFor(context)).send(list.endpoint, {});
    // The list endpoint's documented shape is a list of objects (the client checked it).
    const rows = Array.isArray(teams) ? teams.filter((team): team is Record<string, unknown> => team !== null && typeof team === 'object') : [];
    return rows.map((team) => ({ name: String(team[list.labelField] ?? ''), value: String(team[list.valueField] ?? '') }));
  } catch (error) {
    throw toN8nError(error, context.getNode(), classes);
  }
}
