import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compareReports } from '../../../scripts/api/classify.ts';
import { mayShip } from '../../../scripts/api/gate.ts';
import type { Difference, SurfaceExtractor, SurfaceId, SurfaceReport } from '../../../scripts/api/model.ts';
import { CORPUS } from './edits.ts';
import { applyEdits, makeCopy, reachable, referenceGraph, removeScratch, sourceFiles } from './scratch.ts';

/**
 * Runs the corpus (edits.ts): each edit in a scratch copy of the sources of its own (a fresh
 * module graph each), the surfaces it can reach read afresh by their own extractors and compared
 * with the unchanged copy's, by the checkout's rules. A surface none of whose files the edit
 * touches (by the sources' imports) cannot differ and is not read again: that is what keeps 40
 * and more edits quick. Prints one JSON document on stdout: each edit's surfaces read and their
 * differences. Run by test/api/corpus.test.ts; `node test/api/corpus/run-corpus.ts` by hand.
 */

export interface EditResult {
  readonly name: string;
  /** The surfaces the edit can reach, read again; every other one is unchanged by construction. */
  readonly read: readonly SurfaceId[];
  readonly differences: readonly Difference[];
  /** The differences `npm run api:check` would refuse to ship without a new major version (gate.ts), by surface and id. */
  readonly blocked: readonly string[];
  /** Set when the edit could not be read (an extractor threw): what went wrong. */
  readonly error?: string;
  readonly ms: number;
}

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Files read as data, which no import names: copied into every scratch copy. */
const isData = (file: string) => !/\.(ts|js)$/.test(file);
/** The extractors' registry, which loads only the surfaces asked for. */
const REGISTRY = 'scripts/api/surfaces/index.ts';

async function extractorsIn(copy: string): Promise<Map<SurfaceId, () => Promise<SurfaceExtractor>>> {
  const { extractors } = (await import(pathToFileURL(join(copy, REGISTRY)).href)) as typeof import('../../../scripts/api/surfaces/index.ts');
  return new Map(extractors.map((entry) => [entry.surface, entry.load]));
}

/** What an extractor built from inputs seen in an earlier copy (the client's declarations, by digest). */
const cache = new Map<string, unknown>();

async function readSurfaces(copy: string, surfaces: readonly SurfaceId[]): Promise<Map<SurfaceId, SurfaceReport>> {
  const extractors = await extractorsIn(copy);
  const reports = new Map<SurfaceId, SurfaceReport>();
  // One after another, as the check reads them: the builds (API Extractor) are CPU-bound.
  for (const surface of surfaces) reports.set(surface, await (await extractors.get(surface)!()).extract({ cache }));
  return reports;
}

export async function runCorpus(only?: (name: string) => boolean, log: (line: string) => void = () => {}): Promise<EditResult[]> {
  const files = sourceFiles(root);
  const scratch = mkdtempSync(join(tmpdir(), 'pagerly-api-corpus-'));
  try {
    const base = join(scratch, 'base');
    makeCopy(root, files, base);
    const surfaces = [...(await extractorsIn(base)).keys()];
    const graph = referenceGraph(base, files);
    const reaches = new Map(surfaces.map((surface) => [surface, reachable(graph, files, [`scripts/api/surfaces/${surface}.ts`])]));
    let started = performance.now();
    const baseline = await readSurfaces(base, surfaces);
    log(`baseline: ${surfaces.length} surfaces in ${Math.round(performance.now() - started)} ms`);
    const results: EditResult[] = [];
    for (const [index, edit] of CORPUS.entries()) {
      if (only && !only(edit.name)) continue;
      started = performance.now();
      const copy = join(scratch, `edit-${index}`);
      const touched = edit.edits.map((change) => change.file);
      // A module no surface imports reaches none; a data file none names (read some other way) may reach any: all are read.
      const unknown = touched.some((file) => isData(file) && !surfaces.some((surface) => reaches.get(surface)!.has(file)));
      const read = surfaces.filter((surface) => unknown || touched.some((file) => reaches.get(surface)!.has(file)));
      try {
        // Only what the surfaces read import or read (data, such as the recordings, is copied whole): fewer files to copy.
        const needed = new Set([...read.flatMap((surface) => [...reaches.get(surface)!]), ...touched, REGISTRY]);
        makeCopy(root, unknown ? files : files.filter((file) => needed.has(file) || isData(file)), copy);
        applyEdits(copy, edit.edits);
        const fresh = await readSurfaces(copy, read);
        const differences = read.flatMap((surface) => compareReports(baseline.get(surface)!, fresh.get(surface)!));
        const blocked = differences.filter((d) => !mayShip(d, fresh.get(d.surface), false)).map((d) => `${d.surface} ${d.id}`);
        results.push({ name: edit.name, read, differences, blocked, ms: Math.round(performance.now() - started) });
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        results.push({ name: edit.name, read, differences: [], blocked: [], error: message, ms: Math.round(performance.now() - started) });
      } finally {
        removeScratch(copy);
      }
      log(`${edit.name}: ${read.join(', ')} in ${results.at(-1)!.ms} ms`);
    }
    return results;
  } finally {
    removeScratch(scratch);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const filter = process.argv[2];
  const results = await runCorpus(filter ? (name) => name.includes(filter) : undefined, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`${JSON.stringify(results)}\n`);
}
