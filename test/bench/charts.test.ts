import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { writeCharts } from '../../bench/charts.ts';
import type { BenchResults } from '../../bench/ratios.ts';

/**
 * The bench's charts (bench/charts.ts: Vega-Lite compiled, rendered to SVG by Vega in Node) from a
 * small fixed result set: each chart is well-formed SVG, with one bar per ratio measured, its
 * value written beside it, one tick per anchor at the anchor's place, and the 1× line.
 */
const RESULTS: BenchResults = {
  startedAt: '2026-11-26T22:00:00.000Z',
  machine: { loadAverage1m: 1.5 },
  zapierOverMinimal: 1.25,
  zipOverMinimal: 1.04,
  coldStartOverMinimal: 1.03,
  mcpOverClient: 1.6,
  mcpHttpOverClient: 2.5,
  // The n8n part skipped: its chart is left as it was.
  n8nNodeOverHttp: null,
  cliVersionOverNode: 2.1,
  cliOnCallOverPlainFetch: null,
  requestOverhead: { definition: { aim: 1.1 } },
  mcpOverhead: { aim: 1.2, guard: 2.5 },
  n8nNode: null,
  cliStartup: { aims: { versionOverNode: 3, onCallOverPlainFetch: 1.5 } },
};

const folder = mkdtempSync(join(tmpdir(), 'pagerly-charts-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Node = Record<string, unknown>;
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (_name, _path, _leaf, isAttribute) => !isAttribute });

/** Every element of the SVG with its attributes, depth first. */
function elements(node: unknown, name = 'svg'): { name: string; attributes: Node; children: Node }[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((item) => elements(item, name));
  const object = node as Node;
  const attributes = Object.fromEntries(Object.entries(object).filter(([, value]) => typeof value === 'string'));
  return [
    { name, attributes, children: object },
    ...Object.entries(object)
      .filter(([, value]) => typeof value === 'object')
      .flatMap(([child, value]) => elements(value, child)),
  ];
}

/** The items of one named mark (a Vega mark's group holds one path, line or text per datum), with their accessible labels. */
function markItems(svg: string, mark: string): string[] {
  const group = elements(parser.parse(svg).svg).find(
    (element) => element.name === 'g' && String(element.attributes.class).split(' ').includes(`${mark}_marks`),
  );
  if (!group) return [];
  return ['path', 'line', 'text'].flatMap((kind) =>
    ((group.children[kind] as Node[] | undefined) ?? []).map((item) => String(item['aria-label'] ?? item['#text'] ?? '')),
  );
}

describe("the bench's charts", () => {
  let outcome: Awaited<ReturnType<typeof writeCharts>>;
  const read = (file: string) => readFileSync(join(folder, file), 'utf8');

  it('writes a chart for each surface measured and leaves the one not measured as it was', async () => {
    writeFileSync(join(folder, 'n8n.svg'), 'as it was');
    outcome = await writeCharts(RESULTS, folder);
    expect(outcome).toEqual({ written: ['zapier.svg', 'mcp.svg', 'cli.svg'], left: ['n8n.svg'] });
    expect(read('n8n.svg')).toBe('as it was');
  }, 30_000);

  it.each(['zapier.svg', 'mcp.svg', 'cli.svg'])('%s is well-formed SVG', (file) => {
    const svg = read(file);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it('draws one bar per ratio measured, with its value', () => {
    expect(markItems(read('zapier.svg'), 'bars')).toHaveLength(3);
    expect(markItems(read('mcp.svg'), 'bars')).toHaveLength(2);
    // The CLI's on-call ratio was not measured: one bar, and the subtitle says which is missing.
    expect(markItems(read('cli.svg'), 'bars')).toHaveLength(1);
    expect(read('cli.svg')).toContain('not measured in this run: cliOnCallOverPlainFetch');
    expect(markItems(read('mcp.svg'), 'values').join(' ')).toMatch(/1\.60×.*2\.50×/);
  });

  it('draws each anchor at its value, the aim and the guard apart, and the 1× line', () => {
    const anchors = markItems(read('mcp.svg'), 'anchors');
    // The stdio ratio has an aim and a guard, the HTTP ratio an aim.
    expect(anchors).toHaveLength(3);
    expect(anchors.filter((label) => /anchor: aim ≤ 1\.20×/.test(label) && /ratio \(×\): 1\.2;/.test(label))).toHaveLength(2);
    expect(anchors.filter((label) => /anchor: guard ≤ 2\.50×/.test(label) && /ratio \(×\): 2\.5;/.test(label))).toHaveLength(1);
    expect(markItems(read('zapier.svg'), 'anchors').filter((label) => /aim ≤ 1\.10×/.test(label))).toHaveLength(1);
    for (const file of outcome.written) expect(markItems(read(file), 'parity')).toHaveLength(1);
  });
});
