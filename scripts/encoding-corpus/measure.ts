import { fileURLToPath } from 'node:url';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { type CheckFile, checkCorpus, mixedFiles } from './check-corpus.ts';
import { type CorpusFile, corpus } from './corpus.ts';

/**
 * Reads every file of the corpus (corpus.ts) with the sync reader and prints, per file, whether
 * its names were read exactly, refused, or misread, and the refusal rate:
 * `node scripts/encoding-corpus/measure.ts` (`--json` for the rows as JSON). With `--check`, the
 * check corpus (check-corpus.ts) instead, as a table per locale and half.
 */
export type Outcome = 'exact' | 'refused' | 'misread';

export interface Measured {
  readonly file: CorpusFile;
  readonly outcome: Outcome;
  /** How the reader read it: its encoding, or why it refused. */
  readonly how: string;
}

export function measure(file: CorpusFile): Measured {
  const read = readSyncFile(`${file.id}.csv`, () => file.bytes);
  if (!read.ok) return { file, outcome: 'refused', how: read.problems[0]?.problem ?? '' };
  const names = read.rows.map((row) => row.values['name']);
  const exact = JSON.stringify(names) === JSON.stringify(file.names) && read.problems.length === 0;
  return {
    file,
    outcome: exact ? 'exact' : 'misread',
    how: `${read.encoding}${read.confidence === undefined ? '' : ` (${read.confidence}/100)`}${read.note?.includes('encoded twice') ? ', repaired' : ''}`,
  };
}

/** Outcomes in a few words: `exact`, `3 exact, 1 refused`. */
function tally(measured: readonly Measured[]): string {
  if (measured.length === 1) return measured[0]!.outcome;
  return (['exact', 'refused', 'misread'] as const)
    .map((o) => [o, measured.filter((m) => m.outcome === o).length] as const)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${n} ${o}`)
    .join(', ');
}

/** The check corpus as a Markdown table: per locale, the dozen-people file and the short ones of each half; then the other files and the totals. */
function checkTable(): string[] {
  const rows = checkCorpus().map((file) => ({ ...measure(file), file }) as Measured & { file: CheckFile });
  const locales = [...new Set(rows.filter((r) => r.file.id.includes(' people')).map((r) => r.file.locale))];
  const cell = (locale: string, half: string, dozen: boolean) =>
    tally(rows.filter((r) => r.file.locale === locale && r.file.half === half && r.file.id.includes(' people') && (r.file.people === 12) === dozen));
  const lines = [
    '| Locale | Code page | Tuning half: 12 people | Tuning half: 2-3 people | Held half: 12 people | Held half: 2-3 people |',
    '| --- | --- | --- | --- | --- | --- |',
    ...locales.map(
      (locale) =>
        `| ${locale} | ${rows.find((r) => r.file.locale === locale)!.file.savedAs} | ${cell(locale, 'tuning', true)} | ${cell(locale, 'tuning', false)} | ${cell(locale, 'held', true)} | ${cell(locale, 'held', false)} |`,
    ),
    '',
    ...rows.filter((r) => !r.file.id.includes(' people')).map((r) => `- ${r.file.id}: ${r.outcome} (${r.how.slice(0, 100)})`),
    '',
  ];
  const mixed = mixedFiles().map(measure);
  lines.push(`files put together from two code pages' exports (mixedFiles): ${mixed.length} files, ${tally(mixed)}`);
  for (const half of ['tuning', 'held']) {
    const of = rows.filter((r) => r.file.half === half);
    const count = (o: Outcome) => of.filter((r) => r.outcome === o).length;
    lines.push(
      `${half} half: ${of.length} files, ${count('exact')} read exactly, ${count('refused')} refused, ${count('misread')} misread; refusal rate ${((100 * count('refused')) / of.length).toFixed(1)}%`,
    );
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    for (const line of checkTable()) console.log(line);
  } else {
    const rows = corpus().map(measure);
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify(rows.map(({ file, outcome, how }) => ({ file: file.id, savedAs: file.savedAs, outcome, how }))));
    } else {
      const width = Math.max(...rows.map((r) => r.file.id.length));
      for (const { file, outcome, how } of rows) console.log(`${file.id.padEnd(width)}  ${outcome.padEnd(8)} ${how.slice(0, 140)}`);
      const count = (o: Outcome) => rows.filter((r) => r.outcome === o).length;
      console.log(
        `\n${rows.length} files: ${count('exact')} read exactly, ${count('refused')} refused, ${count('misread')} misread; refusal rate ${((100 * count('refused')) / rows.length).toFixed(1)}%`,
      );
    }
  }
}
