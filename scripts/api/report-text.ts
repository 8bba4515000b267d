import type { ApiItem, Fact, SurfaceId, SurfaceReport } from './model.ts';

/**
 * A report as committed text, made for review in a pull request's diff: a header line, then one
 * line per item, sorted by id (code-point order, so no locale moves a line), each line
 * `id<TAB>kind<TAB>fact=value<TAB>…` with the facts sorted by name and each value as JSON. JSON
 * escapes tabs and line breaks, so a tab always ends a field and a line always ends an item:
 * the reader splits on them and gets back the same structure. No timestamp, no version: the
 * same interface is the same bytes.
 */

const HEADER_MARK = '#';

export const reportHeader = (surface: SurfaceId) =>
  `${HEADER_MARK} The public interface of the ${surface} surface, written by \`npm run api:update\` (never by hand); how to read it: docs/api-reports.md`;

const FACT_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

function checkItem(surface: SurfaceId, item: ApiItem): void {
  // A tab or a line break in an id or kind would cut the line where the reader does not expect it.
  for (const [what, text] of [
    ['id', item.id],
    ['kind', item.kind],
  ] as const) {
    if (text === '' || /[\t\r\n]/.test(text) || text.startsWith(HEADER_MARK)) {
      throw new Error(`The ${surface} report cannot hold the ${what} ${JSON.stringify(text)}: empty, starts with "#", or has a tab or line break.`);
    }
  }
  for (const name of Object.keys(item.facts)) {
    if (!FACT_NAME.test(name))
      throw new Error(`The ${surface} report's item ${item.id} has a fact named ${JSON.stringify(name)}: use letters, digits, _ or -.`);
  }
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The report as text: sorted, stable, one line per item, a final line break. */
export function writeReport(report: SurfaceReport): string {
  const seen = new Set<string>();
  const lines = [...report.items]
    .sort((a, b) => byCodePoint(a.id, b.id))
    .map((item) => {
      checkItem(report.surface, item);
      if (seen.has(item.id)) throw new Error(`The ${report.surface} report has two items with the id ${item.id}: ids must be unique.`);
      seen.add(item.id);
      const facts = Object.keys(item.facts)
        .sort(byCodePoint)
        .filter((name) => item.facts[name] !== undefined)
        .map((name) => `${name}=${JSON.stringify(item.facts[name])}`);
      return [item.id, item.kind, ...facts].join('\t');
    });
  return `${[reportHeader(report.surface), ...lines].join('\n')}\n`;
}

function parseFact(raw: string, where: string): [string, Fact] {
  const at = raw.indexOf('=');
  if (at <= 0) throw new Error(`${where}: "${raw}" is not name=value.`);
  const name = raw.slice(0, at);
  let value: unknown;
  try {
    value = JSON.parse(raw.slice(at + 1));
  } catch {
    throw new Error(`${where}: the value of ${name} is not JSON.`);
  }
  const isFact =
    value === null || ['string', 'number', 'boolean'].includes(typeof value) || (Array.isArray(value) && value.every((entry) => typeof entry === 'string'));
  if (!isFact) throw new Error(`${where}: the value of ${name} is neither text, a number, a boolean, null nor a list of texts.`);
  return [name, value as Fact];
}

/** Reads a committed report back: the structure the check compares, not its lines. */
export function readReport(surface: SurfaceId, text: string, file = `api/${surface}.txt`): SurfaceReport {
  const items: ApiItem[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((line, index) => {
    if (line === '' || line.startsWith(HEADER_MARK)) return;
    const where = `${file}:${index + 1}`;
    const [id, kind, ...facts] = line.split('\t');
    if (!id || !kind) throw new Error(`${where}: a line needs an id and a kind, separated by a tab (a merge left conflict markers? run npm run api:update).`);
    // Two lines of one id (a merge that kept both sides) would leave one of them out of every comparison.
    if (seen.has(id)) throw new Error(`${where}: a second line for ${id}: run npm run api:update.`);
    seen.add(id);
    items.push({ id, kind, facts: Object.fromEntries(facts.map((raw) => parseFact(raw, where))) });
  });
  return { surface, items };
}
