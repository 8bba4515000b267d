import { mkdirSync, writeFileSync } from 'node:fs';
import type { GeneratedFiles, Surface } from '../surfaces/surface.ts';
import { mcpName, mcpSteps } from './operation-names.ts';
import { toolDefinitions } from './tools.ts';

/** The tools as `tools/list` describes them, JSON Schema 2020-12 (MCP's dialect), plus whether each needs the write flag. */
export function toolList(tools: ReturnType<typeof toolDefinitions>) {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    // The same conversion the SDK makes for tools/list, so the file is what a host is shown.
    inputSchema: tool.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
    outputSchema: tool.outputSchema['~standard'].jsonSchema.output({ target: 'draft-2020-12' }),
    annotations: tool.annotations,
    writeTool: tool.writes,
  }));
}

const DIST = new URL('../dist/mcp/', import.meta.url);

/**
 * The MCP server (`pagerly mcp`): its tools are made from the descriptions at start-up, so
 * `generate` is the tool list they make, and the build writes it for reviewers and hosts that
 * want to see it without running the server. The on-call trigger has no tool: `poll: []`, as a
 * tool answers one call and cannot wait for a change.
 */
export const mcpSurface: Surface = {
  name: 'MCP',
  nameColumn: 'MCP tool',
  steps: mcpSteps,
  trigger: { poll: [] },
  nameOf: (operation) => {
    const name = mcpName(operation);
    return 'tool' in name ? { names: [name.tool], label: name.title } : { names: [] };
  },
  generate: (source): GeneratedFiles => new Map([['tools.json', toolList(toolDefinitions(source))]]),
  async build() {
    const { endpoints } = await import('../shared/catalog/endpoints.ts');
    const { operations } = await import('../shared/operations/index.ts');
    const list = toolList(toolDefinitions({ operations, endpoints }));
    mkdirSync(DIST, { recursive: true });
    writeFileSync(new URL('tools.json', DIST), `${JSON.stringify(list, null, 2)}\n`);
    const writes = list.filter((tool) => tool.writeTool).length;
    return [`MCP server: pagerly mcp, ${list.length - writes} read tools (+${writes} with --enable-write-tools); tool list in dist/mcp/tools.json`];
  },
};
