import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { actionNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { compareReports } from '../../scripts/api/classify.ts';
import { n8nItems, n8nNodes } from '../../scripts/api/surfaces/n8n.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';

/**
 * Why a moved default breaks saved n8n workflows, on n8n's own code: a workflow is saved with
 * `NodeHelpers.getNodeParameters(…, returnDefaults: false)`, which keeps only the parameters
 * that differ from their default ("Set only if it is different to the default value",
 * n8n-workflow's node-helpers), and run with `returnDefaults: true`, which fills in the defaults
 * of the node as it is now. A collection is saved whole once an option is added. So reordering
 * the operations (which moves the node's default resource and operation) turns a saved "Create
 * an incident" into another operation, and the check says so; a collection option's default
 * (its prefill) moves nothing saved.
 */

const require = createRequire(import.meta.url);
const { NodeHelpers } = require('n8n-workflow') as typeof import('n8n-workflow');

const describe_ = (list: readonly Operation[]) => actionNodeDescription(list) as unknown as INodeTypeDescription;
const node = (parameters: INodeParameters): INode => ({
  id: 'n',
  name: 'Pagerly',
  type: 'n8n-nodes-pagerly.pagerly',
  typeVersion: 1,
  position: [0, 0],
  parameters,
});
/** What the editor saves for these values, and what a run then reads with this description. */
const saved = (description: INodeTypeDescription, values: INodeParameters) =>
  NodeHelpers.getNodeParameters(description.properties as INodeProperties[], values, false, false, node(values), description) ?? {};
const run = (description: INodeTypeDescription, stored: INodeParameters) =>
  NodeHelpers.getNodeParameters(description.properties as INodeProperties[], stored, true, false, node(stored), description) ?? {};

// The directory's operations listed first: what a pull request that reorders the list does.
const reordered = [...operations.filter((op) => op.noun === 'Directory Entry'), ...operations.filter((op) => op.noun !== 'Directory Entry')];

describe('n8n leaves defaults out of a saved node', () => {
  const shipped = describe_(operations);
  const createIncident: INodeParameters = { resource: 'incident', operation: 'create', title: 'Disk full', additionalFields: { severity: 'P1' } };

  it('a node set up to create an incident is saved without its resource and operation, which are the defaults', () => {
    const stored = saved(shipped, createIncident);
    expect(stored['resource']).toBeUndefined();
    expect(stored['operation']).toBeUndefined();
    // The collection is saved whole, its option kept although it equals the option's default.
    expect(stored['additionalFields']).toEqual({ severity: 'P1' });
    expect(run(shipped, stored)).toMatchObject({ resource: 'incident', operation: 'create', title: 'Disk full' });
  });

  it('with the operations reordered, the same saved node runs as another resource, and the check calls it breaking on n8n', () => {
    const stored = saved(shipped, createIncident);
    expect(reordered.map((op) => op.id)).not.toEqual(operations.map((op) => op.id));
    expect(run(describe_(reordered), stored)).toMatchObject({ resource: 'directoryEntry' });
    const differences = compareReports(
      { surface: 'n8n', items: n8nItems(operations, n8nNodes(operations), endpoints) },
      { surface: 'n8n', items: n8nItems(reordered, n8nNodes(reordered), endpoints) },
    );
    expect(differences.map((d) => [d.id, d.verdict, d.change])).toEqual([
      ['node/pagerly/v1/property/resource', 'breaking', 'default: "incident" → "directoryEntry" (saved automations that leave it out get the new one)'],
    ]);
  });
});
