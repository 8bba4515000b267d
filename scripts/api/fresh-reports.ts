import { Worker } from 'node:worker_threads';
import type { ExtractOptions, Extracted, SurfaceId, SurfaceReport } from './model.ts';
import { extractors } from './surfaces/index.ts';

/** The registered surfaces, or the ones asked for (an unknown one is an error naming the known ones). */
export function surfacesOf(asked?: readonly SurfaceId[]): SurfaceId[] {
  const known = extractors.map((entry) => entry.surface);
  if (!asked) return known;
  const unknown = asked.filter((surface) => !known.includes(surface));
  if (unknown.length) throw new Error(`No extractor for ${unknown.join(', ')}: the surfaces are ${known.join(', ')}.`);
  return known.filter((surface) => asked.includes(surface));
}

/** A surface read on a thread of its own (extract-worker.ts). */
function extractOnThread(surface: SurfaceId, keepDir: string | undefined): Promise<Extracted> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./extract-worker.ts', import.meta.url), { workerData: { surface, keepDir } });
    worker.once('message', (message: { extracted?: Extracted; error?: string }) => {
      if (message.extracted) resolve(message.extracted);
      else reject(new Error(`reading the ${surface} surface failed: ${message.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`reading the ${surface} surface stopped (exit ${code}) before it answered`)));
  });
}

/**
 * Reads each surface's interface afresh from the checkout's source (built in memory or in a
 * temporary folder, never dist/), with the files written beside each report. A surface whose
 * build is long and CPU-bound and shares nothing with the others (the client's: tsc, then API
 * Extractor) is read on a thread of its own while the others are read one after another here:
 * on two cores that is most of the check's time saved. Given descriptions to build from
 * (`options.source`), everything is read here, from them. The order of the output stays fixed.
 */
export async function freshExtractions(
  asked?: readonly SurfaceId[],
  options: ExtractOptions = {},
  timing?: (surface: SurfaceId, ms: number, where: 'here' | 'thread') => void,
): Promise<Extracted[]> {
  const wanted = surfacesOf(asked);
  const entries = extractors.filter((entry) => wanted.includes(entry.surface));
  const started = performance.now();
  const onThreads = new Map(
    entries
      .filter((entry) => entry.ownThread && !options.source)
      .map(
        (entry) =>
          [
            entry.surface,
            extractOnThread(entry.surface, options.keepDir).finally(() => timing?.(entry.surface, performance.now() - started, 'thread')),
          ] as const,
      ),
  );
  // A thread that fails while the others are read is still awaited below, where it is reported.
  for (const pending of onThreads.values()) pending.catch(() => {});
  const extracted: Extracted[] = [];
  for (const entry of entries) {
    const pending = onThreads.get(entry.surface);
    if (pending) {
      extracted.push(await pending);
      continue;
    }
    const at = performance.now();
    const extractor = await entry.load();
    extracted.push(extractor.extractWithFiles && !options.source ? await extractor.extractWithFiles(options) : { report: await extractor.extract(options) });
    timing?.(entry.surface, performance.now() - at, 'here');
  }
  for (const { report } of extracted) {
    const asked = entries[extracted.findIndex((one) => one.report === report)]!.surface;
    if (report.surface !== asked) throw new Error(`The extractor registered for ${asked} reported ${report.surface}.`);
  }
  return extracted;
}

/** Each surface's report, read afresh (freshExtractions). */
export async function freshReports(asked?: readonly SurfaceId[], options: ExtractOptions = {}): Promise<SurfaceReport[]> {
  return (await freshExtractions(asked, options)).map(({ report }) => report);
}
