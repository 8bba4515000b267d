import { createContext, Script } from 'node:vm';

/** One item as n8n passes it between nodes. */
export interface Item {
  json: Record<string, unknown>;
}

/** What a Code node's JavaScript sees besides its own code (n8n's `$input`, `$()` and static data). */
export interface CodeNodeInput {
  readonly items: readonly Item[];
  /** The first item each named earlier node output, for `$('Node name').first()`. */
  readonly nodes?: Readonly<Record<string, Item>>;
  /** The workflow's static data (`$getWorkflowStaticData('global')`), changed in place as n8n does. */
  readonly staticData?: Record<string, unknown>;
}

/**
 * Runs the JavaScript of a Code node ("Run Once for All Items") as n8n does: the code is the
 * body of an async function, `return` gives the items. In a fresh vm context holding only the
 * few helpers the templates use, so a test reads what the node outputs without n8n.
 */
export async function runCodeNode(code: string, input: CodeNodeInput): Promise<Item[]> {
  const items = [...input.items];
  const staticData = input.staticData ?? {};
  const context = createContext({
    $input: { all: () => items, first: () => items[0], last: () => items.at(-1) },
    $json: items[0]?.json ?? {},
    $: (name: string) => {
      const item = input.nodes?.[name];
      if (!item) throw new Error(`The code read the node "${name}", which the test did not give`);
      return { first: () => item, item };
    },
    $getWorkflowStaticData: (scope: string) => {
      if (scope !== 'global') throw new Error(`static data scope "${scope}"`);
      return staticData;
    },
  });
  const script = new Script(`(async () => {\n${code}\n})()`, { filename: 'code-node.js' });
  const output = (await script.runInContext(context, { timeout: 10_000 })) as unknown;
  if (!Array.isArray(output)) throw new Error(`the Code node returned ${typeof output}, not a list of items`);
  return output as Item[];
}
