import { assumptions } from '../shared/assumptions.ts';
import type { Endpoint } from '../shared/catalog/endpoint.ts';
import { endpoints, type EndpointKey } from '../shared/catalog/endpoints.ts';
import { callsOf } from '../shared/operations/calls.ts';
import { connection } from '../shared/operations/connection.ts';
import { operations } from '../shared/operations/index.ts';
import { surfaces } from './surfaces.ts';
import { tools } from '../mcp-server/server.ts';
import { NEXT_CURSOR } from '../mcp-server/tools.ts';

/** Tables written from shared/ into the docs by `npm run docs`, so they cannot drift from the code. */
interface Table {
  readonly name: string;
  /** The file, relative to the repository root, that holds the table between its markers. */
  readonly file: string;
  readonly header: readonly string[];
  rows(): string[][];
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => `\`${text}\``;

const kinds = { action: 'action', search: 'search', hook: 'trigger (instant; n8n polls)', list: 'dropdown source' } as const;

/** Who calls an endpoint: the operations that do (by id), the key check, and the triggers by surface. */
function callersOf(key: EndpointKey): string[] {
  const byOperation = operations.filter((op) => callsOf(op).includes(key)).map((op) => code(op.id));
  const byTrigger = surfaces
    .filter(({ trigger }) => trigger && ('hook' in trigger ? [trigger.hook.subscribe, trigger.hook.unsubscribe] : trigger.poll).includes(key))
    .map((surface) => `${surface.name}'s on-call trigger`);
  return [...(key === connection.testEndpoint ? ['every connection test'] : []), ...byOperation, ...byTrigger];
}

export const tables: readonly Table[] = [
  {
    name: 'calls',
    file: 'docs/assumptions.md',
    header: ['Call', 'In the reference', 'Made by', 'Where the service lacks it'],
    rows: () =>
      (Object.keys(endpoints) as EndpointKey[]).map((key) => {
        const endpoint: Endpoint = endpoints[key];
        const documented = endpoint.documented ? 'yes' : 'no';
        return [code(`${endpoint.method} ${endpoint.path}`), documented, callersOf(key).join(', ') || 'nothing', endpoint.withoutIt ?? ''];
      }),
  },
  {
    name: 'assumptions',
    file: 'docs/assumptions.md',
    header: ['Left open', 'What this project does', 'Why', 'Id'],
    rows: () => assumptions.map((a) => [a.topic, a.choice, a.why, code(a.id)]),
  },
  {
    name: 'mcp-tools',
    file: 'docs/mcp.md',
    header: ['Tool', 'Title', 'Offered', 'Hints', 'Returns'],
    rows: () =>
      tools.map((tool) => {
        const { readOnlyHint, destructiveHint, idempotentHint } = tool.annotations;
        const hints = [readOnlyHint && 'read-only', destructiveHint && 'destructive', idempotentHint && 'idempotent'].filter(Boolean).join(', ') || 'none';
        const keys = tool.operation.outputFields.map((field) => field.key).join(', ');
        const counted = tool.bounds ? `, "total": N${tool.bounds.resumable ? `, "teams_read": N, "teams_total": N, "${NEXT_CURSOR}": "…"` : ''}` : '';
        const returns = tool.resultKey ? `${code(`{"${tool.resultKey}": [...], "as_of": "…"${counted}}`)}, each with ${keys}` : keys;
        const offered = tool.writes ? `with \`--enable-write-tools\`${tool.asksFirst ? '; asks the person first' : ''}` : 'always';
        return [code(tool.name), tool.title, offered, hints, returns];
      }),
  },
  {
    name: 'operations',
    file: 'README.md',
    header: ['Operation', 'Kind', ...surfaces.map((surface) => surface.nameColumn), 'Calls', 'Org admin only'],
    rows: () =>
      operations.map((op) => {
        // A trigger subscribes with the hook endpoint of the surface it runs on, or polls its reads.
        const calls =
          op.kind === 'hook' ? surfaces.flatMap(({ trigger }) => (!trigger ? [] : 'hook' in trigger ? [trigger.hook.subscribe] : trigger.poll)) : callsOf(op);
        const admin = calls.some((key) => endpoints[key].adminOnly);
        const paths = [...new Set(calls.map((key) => `${endpoints[key].method} ${endpoints[key].path}`))].map(code).join(', ');
        const names = surfaces.map((surface) => surface.nameOf(op).names.map(code).join(' / '));
        return [code(op.id), kinds[op.kind], ...names, paths, admin ? 'yes' : ''];
      }),
  },
];

const begin = (name: string) => `<!-- ${name}:begin -->`;
const end = (name: string) => `<!-- ${name}:end -->`;

function render(table: Table): string {
  const lines = [table.header, table.header.map(() => '---'), ...table.rows()].map((row) => `| ${row.map(cell).join(' | ')} |`);
  return [begin(table.name), ...lines, end(table.name)].join('\n');
}

/** The files that hold generated tables, relative to the repository root. */
export const tableFiles: readonly string[] = [...new Set(tables.map((table) => table.file))];

/** `file`'s text with each of its generated tables replaced; throws when a table's markers are missing. */
export function withGeneratedTables(file: string, text: string): string {
  return tables
    .filter((table) => table.file === file)
    .reduce((current, table) => {
      const start = current.indexOf(begin(table.name));
      const stop = current.indexOf(end(table.name));
      if (start < 0 || stop < start) throw new Error(`${file} lacks the markers ${begin(table.name)} ... ${end(table.name)}`);
      return current.slice(0, start) + render(table) + current.slice(stop + end(table.name).length);
    }, text);
}
