// The headline ratios of a bench run, each with its anchors (the aim it is held to, the guard that
// fails the run), read from the results file `npm run bench` writes (bench/results/latest.json):
// what the charts draw (bench/charts.ts). Every ratio is one way's median over a baseline's, so 1×
// is parity; the anchors come from the run itself, as the parts recorded them.

/** The part of bench/results/latest.json the ratios are read from (null: the part was skipped or failed). */
export interface BenchResults {
  startedAt: string;
  machine?: { loadAverage1m?: number; cpus?: number } | null;
  zapierOverMinimal: number | null;
  zipOverMinimal: number | null;
  coldStartOverMinimal: number | null;
  mcpOverClient: number | null;
  mcpHttpOverClient: number | null;
  n8nNodeOverHttp: number | null;
  cliVersionOverNode: number | null;
  cliOnCallOverPlainFetch: number | null;
  requestOverhead?: { definition?: { aim?: number } } | null;
  mcpOverhead?: { aim?: number; guard?: number } | null;
  n8nNode?: { aim?: number } | null;
  cliStartup?: { aims?: { versionOverNode?: number; onCallOverPlainFetch?: number } } | null;
}

export interface Anchor {
  /** An aim is printed when missed; a guard fails the run. Both are upper bounds. */
  kind: 'aim' | 'guard';
  value: number;
}

export interface Ratio {
  /** The chart it is drawn in: one a surface. */
  group: 'zapier' | 'mcp' | 'cli' | 'n8n';
  /** Its name in the results file and the report. */
  key: string;
  /** What it divides, as the chart says it. */
  label: string;
  value: number | null;
  anchors: Anchor[];
}

/** The charts, in the order docs/benchmarks.md shows them, with their titles. */
export const GROUPS: Record<Ratio['group'], string> = {
  zapier: 'Zapier app ÷ a minimal zapier-platform-core app',
  mcp: 'pagerly mcp ÷ the typed client, "who is on call"',
  cli: 'the installed CLI ÷ a baseline process',
  n8n: "n8n: the Pagerly node ÷ n8n's HTTP Request node, 1,000 items",
};

const anchors = (...found: [Anchor['kind'], number | undefined][]): Anchor[] =>
  found.flatMap(([kind, value]) => (typeof value === 'number' && Number.isFinite(value) ? [{ kind, value }] : []));

export function ratiosOf(results: BenchResults): Ratio[] {
  return [
    {
      group: 'zapier',
      key: 'zapierOverMinimal',
      label: 'per call (triggers.team)',
      value: results.zapierOverMinimal,
      anchors: anchors(['aim', results.requestOverhead?.definition?.aim]),
    },
    { group: 'zapier', key: 'zipOverMinimal', label: 'upload zip, bytes', value: results.zipOverMinimal, anchors: [] },
    { group: 'zapier', key: 'coldStartOverMinimal', label: 'cold start to first answer', value: results.coldStartOverMinimal, anchors: [] },
    {
      group: 'mcp',
      key: 'mcpOverClient',
      label: 'over stdio (tools/call)',
      value: results.mcpOverClient,
      anchors: anchors(['aim', results.mcpOverhead?.aim], ['guard', results.mcpOverhead?.guard]),
    },
    {
      group: 'mcp',
      key: 'mcpHttpOverClient',
      label: 'over Streamable HTTP',
      value: results.mcpHttpOverClient,
      anchors: anchors(['aim', results.mcpOverhead?.aim]),
    },
    {
      group: 'cli',
      key: 'cliVersionOverNode',
      label: 'pagerly --version ÷ node -e 0',
      value: results.cliVersionOverNode,
      anchors: anchors(['aim', results.cliStartup?.aims?.versionOverNode]),
    },
    {
      group: 'cli',
      key: 'cliOnCallOverPlainFetch',
      label: 'pagerly on-call ÷ a plain fetch script',
      value: results.cliOnCallOverPlainFetch,
      anchors: anchors(['aim', results.cliStartup?.aims?.onCallOverPlainFetch]),
    },
    {
      group: 'n8n',
      key: 'n8nNodeOverHttp',
      label: 'Create Incident ÷ HTTP Request',
      value: results.n8nNodeOverHttp,
      anchors: anchors(['aim', results.n8nNode?.aim]),
    },
  ];
}
