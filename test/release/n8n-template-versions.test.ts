import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { actionNodeDescription, triggerNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { ACTION_NODE, TRIGGER_NODE } from '../../n8n-app/names.ts';
import { isPagerlyNode, n8nTemplates, packageNodeType, type TemplateNode } from '../../n8n-app/templates/templates.ts';
import rootPackage from '../../package.json' with { type: 'json' };
import { readReportFile, releasedDir } from '../../scripts/api/report-files.ts';
import { operations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';

/**
 * An n8n workflow keeps the typeVersion each node was saved with, and n8n runs a node only at a
 * version its type still declares. The templates stand for the workflows users saved: each pins
 * its Pagerly nodes to a released typeVersion, which the node as built must still declare and
 * still offer the template's operation at, also once an operation is retiring (a new version is
 * added, the old one kept). `npm run n8n:e2e` imports and runs every template on the real engine.
 */
const { NodeHelpers } = createRequire(import.meta.url)('n8n-workflow') as typeof import('n8n-workflow');

const descriptionsOf = (list: readonly Operation[]): Record<string, INodeTypeDescription> => ({
  [packageNodeType(ACTION_NODE.name)]: actionNodeDescription(list) as unknown as INodeTypeDescription,
  [packageNodeType(TRIGGER_NODE.name)]: triggerNodeDescription(list) as unknown as INodeTypeDescription,
});
const declared = (description: INodeTypeDescription) => (Array.isArray(description.version) ? description.version : [description.version]);
const pagerlyNodes = n8nTemplates().flatMap((template) => template.workflow.nodes.filter(isPagerlyNode).map((node) => [template.file, node] as const));

/** Whether n8n shows the node's operation to a node of its typeVersion (its own display rules). */
function offersItsOperation(description: INodeTypeDescription, node: TemplateNode): boolean {
  const { resource, operation } = node.parameters as { resource?: string; operation?: string };
  if (!operation) return true; // the trigger: one operation, no selector
  return (description.properties as INodeProperties[]).some(
    (property) =>
      property.name === 'operation' &&
      NodeHelpers.displayParameter({ resource }, property, { typeVersion: node.typeVersion }, description) &&
      (property.options ?? []).some((option) => 'value' in option && option.value === operation),
  );
}

describe('the n8n templates, pinned to a released typeVersion', () => {
  it('have Pagerly nodes, each at a typeVersion of the released nodes (api/released/n8n.txt)', () => {
    expect(pagerlyNodes.length).toBeGreaterThanOrEqual(4);
    const report = readReportFile(releasedDir(), 'n8n');
    expect(report).toBeDefined();
    const releasedVersions = new Set(report!.items.filter((item) => item.kind === 'node-version').map((item) => item.id));
    for (const [file, node] of pagerlyNodes) {
      const name = node.type.slice(node.type.indexOf('.') + 1);
      expect([file, node.name, releasedVersions.has(`node/${name}/v${node.typeVersion}`)]).toEqual([file, node.name, true]);
    }
  });

  it('run on the nodes as built: each typeVersion still declared, each operation still offered at it', () => {
    const built = descriptionsOf(operations);
    for (const [file, node] of pagerlyNodes) {
      const description = built[node.type]!;
      expect([file, node.name, declared(description)]).toEqual([file, node.name, expect.arrayContaining([node.typeVersion])]);
      expect([file, node.name, offersItsOperation(description, node)]).toEqual([file, node.name, true]);
    }
  });

  it('keep running when the operations they use retire: the old version stays, with them', () => {
    // Every operation the templates use, and the hook, retiring at once: the harshest case.
    const retiring = operations.map((op) => (op.kind === 'list' ? op : ({ ...op, retiring: { since: rootPackage.version } } as Operation)));
    const built = descriptionsOf(retiring);
    expect(declared(built[packageNodeType(ACTION_NODE.name)]!)).toEqual([1, 2]);
    for (const [file, node] of pagerlyNodes) {
      const description = built[node.type]!;
      expect([file, node.name, declared(description)]).toEqual([file, node.name, expect.arrayContaining([node.typeVersion])]);
      expect([file, node.name, offersItsOperation(description, node)]).toEqual([file, node.name, true]);
    }
  });
});
