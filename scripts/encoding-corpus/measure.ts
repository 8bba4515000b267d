import { fileURLToPath } from 'node:url';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { type CorpusFile, corpus } from './corpus.ts';

/**
 * Reads every file of the corpus (corpus.ts) with the sync reader and prints, per file, whether
 * its names were read exactly, refused, or misread, and the refusal rate:
 * `node scripts/encoding-corpus/measure.ts` (`--json` for the rows as JSON).
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
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
