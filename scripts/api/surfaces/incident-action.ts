import { actionItems } from '../action-metadata.ts';
import { item, report, sortedList } from '../item-list.ts';
import { acceptedValues } from '../accepted-values.ts';
import type { ApiItem, Fact, SurfaceExtractor } from '../model.ts';
import { schemaPaths } from '../schema-paths.ts';
import type { Endpoint } from '../../../shared/catalog/endpoint.ts';
import type { Operation } from '../../../shared/operations/types.ts';

/**
 * The incident Action (`pagerly/incident-action`): its action.yml as `npm run build` writes it,
 * made in memory from the operations, and what action.yml cannot say but a workflow depends
 * on: the values an input with fixed choices accepts (the runtime refuses others), and the
 * keys of the `incident` output, which workflows read with `fromJSON(...).status`: the
 * service's answer to the endpoint the Action calls, passed on as it came.
 */
export async function incidentActionItems(source: { operations: readonly Operation[]; endpoints: Readonly<Record<string, Endpoint>> }): Promise<ApiItem[]> {
  const [{ actionYml }, { actionInputs, actionOperations }, { ACTION_REPOSITORY, INCIDENT_OUTPUT }, { wireSchema }] = await Promise.all([
    import('../../../github-action/generator/generate.ts'),
    import('../../../github-action/inputs.ts'),
    import('../../../github-action/names.ts'),
    import('../../../openapi/generator/document.ts'),
  ]);
  const items = actionItems(actionYml(source), ACTION_REPOSITORY);
  const { create, update } = actionOperations(source);
  // Both operations call the same endpoint; its answer is the output, whichever ran.
  const endpoint = source.endpoints[create.endpoint];
  if (!endpoint) throw new Error(`The Action calls ${create.endpoint}, which the catalog lacks`);
  const accepted = acceptedValues(endpoint);
  const extra = new Map<string, Record<string, Fact | undefined>>();
  for (const input of actionInputs(source)) {
    const field = [...create.inputFields, ...update.inputFields].find((f) => f.key === input.field);
    // Suggestions that any other value may replace are no contract; fixed choices are; and what
    // the shared client lets through, whatever the input's description says.
    const choices = field?.choices && !field.customValueAllowed ? sortedList(field.choices.map((c) => c.value)) : undefined;
    extra.set(`input/${input.name}`, { choices, ...(field ? accepted.get(field.key) : {}) });
  }
  const withChoices = items.map((entry) => (extra.has(entry.id) ? item(entry.id, entry.kind, { ...entry.facts, ...extra.get(entry.id) }) : entry));
  const answer = wireSchema(endpoint.output, 'input');
  for (const entry of schemaPaths(answer, () => ({}), true)) {
    if (!entry.path) continue;
    withChoices.push(item(`output/${INCIDENT_OUTPUT}/${entry.path}`, 'output', { type: entry.type, required: entry.required, choices: entry.choices }));
  }
  return withChoices;
}

export const extractor: SurfaceExtractor = {
  surface: 'incident-action',
  async extract() {
    const [{ operations }, { endpoints }] = await Promise.all([import('../../../shared/operations/index.ts'), import('../../../shared/catalog/endpoints.ts')]);
    return report('incident-action', await incidentActionItems({ operations, endpoints }));
  },
};
