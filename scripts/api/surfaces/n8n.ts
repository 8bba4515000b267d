import { actionNodeDescription, credentialDescription, triggerNodeDescription } from '../../../n8n-app/generator/descriptions.ts';
import { n8nName } from '../../../n8n-app/operation-names.ts';
import { DELETED } from '../../../n8n-app/runtime/execute.ts';
import { changesBetween, ON_CALL_CHANGE_TYPES } from '../../../shared/on-call/changes.ts';
import type { Endpoint } from '../../../shared/catalog/endpoint.ts';
import type { Operation, OutputField } from '../../../shared/operations/types.ts';
import { onCallUser, type OnCallUser } from '../../../shared/schemas/on-call-user.ts';
import { type Accepted, acceptedValues } from '../accepted-values.ts';
import type { ApiItem, Fact, SurfaceExtractor } from '../model.ts';
import { compact, factValue, isHidden, sortedValues } from './facts.ts';

/**
 * The n8n package's public interface, read from the node and credential descriptions the
 * generator writes into the package, in memory. A saved workflow stores each node's type and
 * typeVersion and its parameters by name, so every property is reported per typeVersion
 * (`node/pagerly/v1/operation/incident/create/property/title`): a new typeVersion that keeps v1
 * adds items and changes none of v1's.
 */

export interface Property {
  name: string;
  displayName?: string;
  type: string;
  required?: boolean;
  default?: unknown;
  options?: unknown[];
  values?: Property[];
  typeOptions?: { multipleValues?: boolean; loadOptionsMethod?: string; password?: boolean };
  modes?: { name: string; typeOptions?: { searchListMethod?: string } }[];
  displayOptions?: { show?: Record<string, unknown[]>; hide?: Record<string, unknown[]> };
}

export interface NodeDescription {
  name: string;
  displayName: string;
  version: number | number[];
  polling?: boolean;
  group: string[];
  credentials?: { name: string }[];
  properties: readonly unknown[];
}

const versionsOf = (node: NodeDescription) => (Array.isArray(node.version) ? node.version : [node.version]);

/** Whether one `@version` condition value holds for a typeVersion: a number, or n8n's `{ _cnd: { gte: 2 } }`. */
function versionMatches(condition: unknown, version: number): boolean {
  if (typeof condition === 'number') return condition === version;
  const cnd = (condition as { _cnd?: Record<string, number> } | null)?._cnd;
  if (!cnd) return false;
  const [[operator, value] = []] = Object.entries(cnd);
  if (value === undefined) return false;
  const tests: Record<string, boolean> = { eq: version === value, gte: version >= value, lte: version <= value, gt: version > value, lt: version < value };
  return tests[operator ?? ''] ?? false;
}

/** A property is on a typeVersion unless its displayOptions shows it only on others or hides it there. */
function onVersion(property: Property, version: number): boolean {
  const shown = property.displayOptions?.show?.['@version'];
  const hidden = property.displayOptions?.hide?.['@version'];
  if (shown && !shown.some((condition) => versionMatches(condition, version))) return false;
  return !hidden?.some((condition) => versionMatches(condition, version));
}

const properties = (list: readonly unknown[]) => list.filter((p): p is Property => typeof p === 'object' && p !== null && 'name' in p && 'type' in p);

/** A resource locator's default is its empty value in a wrapper: no default a missing value falls back to. */
function defaultOf(property: Property): Fact | undefined {
  const value = property.default;
  if (value && typeof value === 'object' && '__rl' in value) return factValue((value as { value?: unknown }).value || undefined);
  if (value === '' || (typeof value === 'object' && value !== null && Object.keys(value).length === 0)) return undefined;
  return factValue(value);
}

/**
 * A property's facts. n8n saves only the parameters that differ from their default, so a saved
 * node that left one as it was gets whatever the default is now: `default`. An option of a
 * collection is another matter: the collection is saved whole once an option is added, so the
 * option's default is only what the editor puts in it then (`prefill`).
 */
function propertyFacts(property: Property, shownWhen: string | undefined, inCollection = false): Record<string, Fact> {
  const choosable = property.type === 'options' || property.type === 'multiOptions';
  const searchList = property.modes?.flatMap((mode) => (mode.typeOptions?.searchListMethod ? [mode.typeOptions.searchListMethod] : []));
  return compact({
    type: property.type,
    required: property.required ?? false,
    [inCollection ? 'prefill' : 'default']: defaultOf(property),
    list: property.type === 'multiOptions' || property.typeOptions?.multipleValues || undefined,
    choices: choosable && property.options ? sortedValues(property.options.map((option) => (option as { value: unknown }).value)) : undefined,
    dynamic: property.typeOptions?.loadOptionsMethod ?? (searchList?.length ? searchList.join(',') : undefined),
    password: property.typeOptions?.password || undefined,
    shownWhen,
    label: property.displayName,
  });
}

/** The show conditions besides resource, operation and @version, as text: they are facts, not part of the id. */
function otherConditions(property: Property): string | undefined {
  const show = Object.entries(property.displayOptions?.show ?? {}).filter(([key]) => !['resource', 'operation', '@version'].includes(key));
  const hide = Object.entries(property.displayOptions?.hide ?? {}).filter(([key]) => key !== '@version');
  const text = [...show.map(([k, v]) => `${k}=${JSON.stringify(v)}`), ...hide.map(([k, v]) => `not ${k}=${JSON.stringify(v)}`)].join(', ');
  return text || undefined;
}

/** Where a property sits: under each resource and operation it is shown for. */
function placesOf(base: string, property: Property): string[] {
  const resources = property.displayOptions?.show?.['resource']?.map(String);
  const operations = property.displayOptions?.show?.['operation']?.map(String);
  if (!resources) return [base];
  if (!operations) return resources.map((resource) => `${base}/resource/${resource}`);
  return resources.flatMap((resource) => operations.map((operation) => `${base}/operation/${resource}/${operation}`));
}

/** A collection's or fixed collection's options are parameters too, stored under it. */
function nested(property: Property, id: string): ApiItem[] {
  if (property.type === 'collection') return properties(property.options ?? []).flatMap((option) => propertyItems(id, option, undefined, true));
  if (property.type === 'fixedCollection') {
    return properties((property.options ?? []).map((group) => ({ ...(group as object), type: 'fixedCollectionGroup' }))).flatMap((group) => [
      { id: `${id}/${group.name}`, kind: 'property', facts: compact({ type: 'group', label: group.displayName }) },
      ...properties(group.values ?? []).flatMap((value) => propertyItems(`${id}/${group.name}`, value, undefined, true)),
    ]);
  }
  return [];
}

function propertyItems(parentId: string, property: Property, shownWhen: string | undefined, inCollection = false): ApiItem[] {
  const id = `${parentId}/${property.name}`;
  return [{ id, kind: 'property', facts: propertyFacts(property, shownWhen, inCollection) }, ...nested(property, id)];
}

/** An output field, with the values it may take where they are a fixed set (the trigger's `type`). */
type Output = Omit<OutputField, 'spec'> & { readonly spec?: readonly Output[]; readonly values?: readonly string[] };

/** What a node's items hold for an operation: the shared output fields, nested as `team/id`; a delete gives `deleted`. */
function outputItems(parent: string, fields: readonly Output[]): ApiItem[] {
  return fields.flatMap((field) => [
    {
      id: `${parent}/${field.key}`,
      kind: 'output',
      facts: compact({ type: field.type, label: field.label || undefined, choices: field.values ? sortedValues(field.values) : undefined }),
    },
    ...outputItems(`${parent}/${field.key}`, field.spec ?? []),
  ]);
}

const actionOutputs = (operation: Operation): readonly OutputField[] =>
  operation.kind === 'action' && operation.effect === 'delete'
    ? Object.entries(DELETED).map(([key, value]) => ({ key, label: key, type: typeof value as OutputField['type'] }))
    : operation.outputFields;

/**
 * The trigger's item: one person going on or off call, made by the poller's own code from a
 * made-up look; its `type` takes the values of ON_CALL_CHANGE_TYPES, which the poller emits.
 */
function triggerOutputs(): Output[] {
  const user = Object.fromEntries(Object.keys(onCallUser.shape).map((key) => [key, key])) as unknown as OnCallUser;
  const [change] = changesBetween({ t: { name: 'Team', onCall: [] } }, { t: { name: 'Team', onCall: [user] } }, new Date(0));
  const values: Readonly<Record<string, readonly string[]>> = { type: Object.values(ON_CALL_CHANGE_TYPES) };
  const fieldsOf = (value: object, top: boolean): Output[] =>
    Object.entries(value).map(([key, entry]) =>
      entry !== null && typeof entry === 'object'
        ? { key, label: '', type: 'object', spec: fieldsOf(entry, false) }
        : { key, label: '', type: typeof entry as OutputField['type'], ...(top && values[key] ? { values: values[key] } : {}) },
    );
  // The poller's items have no labels: n8n shows their keys.
  return change ? fieldsOf(change, true) : [];
}

/** What the shared client accepts for an operation's parameter (its endpoint's schema), merged into the parameter's item and its collection's options. */
function withAccepted(items: readonly ApiItem[], place: string, accepted: ReadonlyMap<string, Accepted>): ApiItem[] {
  return items.map((item) => {
    const path = item.id.slice(`${place}/property/`.length).split('/');
    const key = path.at(-1)!;
    return path.length <= 2 && accepted.has(key) ? { ...item, facts: compact({ ...item.facts, ...accepted.get(key) }) } : item;
  });
}

function nodeItems(node: NodeDescription, operations: readonly Operation[], endpoints: Readonly<Record<string, Endpoint>>): ApiItem[] {
  const base = `node/${node.name}`;
  const items: ApiItem[] = [
    {
      id: base,
      kind: 'node',
      facts: compact({
        kind: node.polling ? 'polling-trigger' : node.group.includes('trigger') ? 'trigger' : 'action',
        versions: versionsOf(node).map(String),
        credentials: sortedValues((node.credentials ?? []).map((credential) => credential.name)),
        label: node.displayName,
      }),
    },
  ];
  const byName = new Map<string, Operation>(
    operations.flatMap((operation) => {
      const name = n8nName(operation);
      return 'resource' in name ? [[`${name.resource}/${name.operation}`, operation] as const] : [];
    }),
  );
  for (const version of versionsOf(node)) {
    const at = `${base}/v${version}`;
    items.push({ id: at, kind: 'node-version', facts: {} });
    const seen = new Map<string, number>();
    for (const property of properties(node.properties)) {
      // A notice is text in the panel: n8n stores no value for it.
      if (property.type === 'notice' || !onVersion(property, version)) continue;
      for (const place of placesOf(at, property)) {
        if (property.name === 'operation' && place !== at) {
          // Each operation a resource offers is an item, so its parameters and outputs sit under it.
          const resource = place.slice(`${at}/resource/`.length);
          for (const option of (property.options ?? []) as { value: string; action?: string; name: string }[]) {
            const operation = byName.get(`${resource}/${option.value}`);
            const id = `${at}/operation/${resource}/${option.value}`;
            items.push({ id, kind: 'operation', facts: compact({ hidden: isHidden(operation) || undefined, label: option.action ?? option.name }) });
            if (operation) items.push(...outputItems(`${id}/output`, actionOutputs(operation)));
          }
        }
        // Two properties of one name in one place are told apart by when they show.
        const count = (seen.get(`${place}/${property.name}`) ?? 0) + 1;
        seen.set(`${place}/${property.name}`, count);
        const conditions = otherConditions(property);
        const parent = `${place}/property`;
        // A resource's operation dropdown lists its operations, each an item of its own above: its
        // choices are not repeated, so removing an operation is one difference (the operation's).
        const reported = property.name === 'operation' && place !== at ? { ...property, options: undefined } : property;
        const name = count > 1 ? `${property.name}[${count}]` : property.name;
        // On an operation's panel, what the shared client accepts for each of its fields.
        const operation = place.startsWith(`${at}/operation/`) ? byName.get(place.slice(`${at}/operation/`.length)) : undefined;
        const accepted = acceptedValues(operation && 'endpoint' in operation ? endpoints[operation.endpoint] : undefined);
        for (const item of withAccepted(propertyItems(parent, reported, conditions), place, accepted))
          items.push({ ...item, id: item.id.replace(`${parent}/${property.name}`, `${parent}/${name}`) });
      }
    }
    if (node.polling) items.push(...outputItems(`${at}/output`, triggerOutputs()));
  }
  return items;
}

function credentialItems(): ApiItem[] {
  const credential = credentialDescription();
  const base = `credential/${credential.name}`;
  return [
    { id: base, kind: 'credential', facts: compact({ kind: credential.authenticate.type, label: credential.displayName }) },
    ...properties(credential.properties).map((property) => ({
      id: `${base}/property/${property.name}`,
      kind: 'credential-property',
      facts: propertyFacts(property, undefined),
    })),
  ];
}

/** The node descriptions the package is generated with; a test may change a copy of them (a new typeVersion). */
export const n8nNodes = (operations: readonly Operation[]): NodeDescription[] =>
  [actionNodeDescription(operations), triggerNodeDescription(operations)] as unknown as NodeDescription[];

export function n8nItems(
  operations: readonly Operation[],
  nodes: readonly NodeDescription[] = n8nNodes(operations),
  endpoints: Readonly<Record<string, Endpoint>> = {},
): ApiItem[] {
  return [...nodes.flatMap((node) => nodeItems(node, operations, endpoints)), ...credentialItems()];
}

export const extractor: SurfaceExtractor = {
  surface: 'n8n',
  async extract(options = {}) {
    const operations = options.source?.operations ?? (await import('../../../shared/operations/index.ts')).operations;
    const endpoints = options.source?.endpoints ?? (await import('../../../shared/catalog/endpoints.ts')).endpoints;
    return { surface: 'n8n', items: n8nItems(operations, n8nNodes(operations), endpoints) };
  },
};
