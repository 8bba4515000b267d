import { assumptions } from '../shared/assumptions.ts';

export const BEGIN = '<!-- assumptions:begin -->';
export const END = '<!-- assumptions:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The README's "What the API spec leaves open" table, from the one list in shared/. */
export function assumptionsTable(): string {
  const rows = assumptions.map((a) => `| ${cell(a.topic)} | ${cell(a.choice)} | ${cell(a.why)} | \`${a.id}\` |`);
  return [BEGIN, '| Left open | What this project does | Why | Id |', '|---|---|---|---|', ...rows, END].join('\n');
}

/** The README with its table replaced; throws when the markers are missing. */
export function withAssumptionsTable(readme: string): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${BEGIN} ... ${END}`);
  return readme.slice(0, start) + assumptionsTable() + readme.slice(end + END.length);
}
