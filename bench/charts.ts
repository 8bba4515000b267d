// The bench's ratios against their anchors as SVG charts, one a surface, drawn with Vega-Lite
// (compiled to a Vega spec, rendered by Vega's View.toSVG in Node: no browser, no canvas).
// `npm run bench` writes them into docs/benchmarks/ after each run; `npm run bench:charts`
// writes them again from the last results (bench/results/latest.json, or a file given).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { type BenchResults, GROUPS, type Ratio, ratiosOf } from './ratios.ts';

export const CHARTS_FOLDER = fileURLToPath(new URL('../docs/benchmarks/', import.meta.url));
export const LATEST_RESULTS = fileURLToPath(new URL('./results/latest.json', import.meta.url));

const COLORS = { bar: '#4c78a8', aim: '#f58518', guard: '#e45756', parity: '#888888' };
const times = (value: number) => `${value.toFixed(2)}×`;

/** When and where the run was, for the chart's subtitle: figures from two machines are not comparable. */
function about(results: BenchResults): string {
  const when = results.startedAt.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
  const load = results.machine?.loadAverage1m;
  return `npm run bench, ${when}${typeof load === 'number' ? `, load average ${load}` : ''}; lower is better, 1× is parity`;
}

/**
 * One chart: a bar for each ratio measured, its value written at its end; a tick for each of its
 * anchors (aim, guard), coloured by kind; the 1× line. Ratios without a value (the part was
 * skipped or failed) are left out: the caller says which.
 */
export function chartSpec(title: string, ratios: readonly Ratio[], subtitle: string): TopLevelSpec {
  const measured = ratios.filter((ratio): ratio is Ratio & { value: number } => ratio.value !== null && Number.isFinite(ratio.value));
  const bars = measured.map((ratio) => ({ label: ratio.label, key: ratio.key, value: ratio.value, text: times(ratio.value) }));
  const ticks = measured.flatMap((ratio) =>
    ratio.anchors.map((anchor) => ({
      label: ratio.label,
      key: ratio.key,
      kind: `${anchor.kind} ≤ ${times(anchor.value)}`,
      anchor: anchor.kind,
      value: anchor.value,
    })),
  );
  const top = Math.max(1, ...bars.map((bar) => bar.value), ...ticks.map((tick) => tick.value)) * 1.15;
  const kinds = [...new Set(ticks.map((tick) => tick.kind))];
  const y = { field: 'label', type: 'nominal' as const, sort: bars.map((bar) => bar.label), title: null };
  const x = { field: 'value', type: 'quantitative' as const, scale: { domain: [0, top], nice: false }, title: 'ratio (×)' };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, subtitle, anchor: 'start', subtitleColor: '#555' },
    width: 420,
    height: { step: 34 },
    // Vega measures text without a canvas here, by estimate: room for the longest label.
    config: { font: 'Helvetica, Arial, sans-serif', view: { stroke: null }, axisY: { labelLimit: 320 } },
    layer: [
      { name: 'bars', data: { values: bars }, mark: { type: 'bar', color: COLORS.bar, height: { band: 0.6 } }, encoding: { y, x } },
      {
        name: 'values',
        data: { values: bars },
        mark: { type: 'text', align: 'left', dx: 4, fontSize: 11 },
        encoding: { y, x, text: { field: 'text' } },
      },
      {
        name: 'parity',
        data: { values: [{ value: 1 }] },
        mark: { type: 'rule', color: COLORS.parity, strokeDash: [4, 3] },
        encoding: { x },
      },
      {
        name: 'anchors',
        data: { values: ticks },
        mark: { type: 'tick', thickness: 3, bandSize: 26, opacity: 1 },
        encoding: {
          y,
          x,
          color: {
            field: 'kind',
            type: 'nominal',
            title: 'anchor',
            scale: { domain: kinds, range: kinds.map((kind) => (kind.startsWith('guard') ? COLORS.guard : COLORS.aim)) },
            legend: kinds.length ? { orient: 'bottom', direction: 'horizontal' } : null,
          },
        },
      },
    ],
  } as TopLevelSpec;
}

/** A Vega-Lite spec as SVG, rendered headless. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return `${await view.toSVG()}\n`;
  } finally {
    view.finalize();
  }
}

export interface WrittenCharts {
  /** Files written, relative to the folder. */
  written: string[];
  /** Charts with nothing measured in this run (their parts skipped or failed): left as they were. */
  left: string[];
}

/** Every chart with a ratio in the results, written into the folder as `<surface>.svg`. */
export async function writeCharts(results: BenchResults, folder = CHARTS_FOLDER): Promise<WrittenCharts> {
  const ratios = ratiosOf(results);
  const outcome: WrittenCharts = { written: [], left: [] };
  mkdirSync(folder, { recursive: true });
  for (const [group, title] of Object.entries(GROUPS)) {
    const mine = ratios.filter((ratio) => ratio.group === group);
    const file = `${group}.svg`;
    if (!mine.some((ratio) => ratio.value !== null)) {
      outcome.left.push(file);
      continue;
    }
    const missing = mine.filter((ratio) => ratio.value === null).map((ratio) => ratio.key);
    const subtitle = [about(results), ...(missing.length ? [`not measured in this run: ${missing.join(', ')}`] : [])];
    writeFileSync(join(folder, file), await renderSvg(chartSpec(title, mine, subtitle.join('\n'))));
    outcome.written.push(file);
  }
  return outcome;
}

// `npm run bench:charts [results.json]`: the charts again from the last run's results.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? LATEST_RESULTS;
  let results: BenchResults;
  try {
    results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  } catch (error) {
    console.error(`No bench results to draw from in ${file} (${(error as Error).message}): run npm run bench first.`);
    process.exit(2);
  }
  const { written, left } = await writeCharts(results);
  console.log(`Charts of the run of ${results.startedAt} written to docs/benchmarks/: ${written.join(', ') || 'none'}`);
  if (left.length) console.log(`Not measured in that run, left as they were: ${left.join(', ')}`);
}
