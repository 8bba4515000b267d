import { parentPort, workerData } from 'node:worker_threads';
import type { Extracted, SurfaceId } from './model.ts';
import { extractors } from './surfaces/index.ts';

/**
 * One surface's extraction on a thread of its own (fresh-reports.ts): its report and the files
 * written beside it, posted back as plain data. A failure is posted as its message and stack, so
 * the check says what went wrong rather than that a thread died.
 */
const { surface, keepDir } = workerData as { surface: SurfaceId; keepDir?: string };
const options = keepDir ? { keepDir } : {};
try {
  const entry = extractors.find((candidate) => candidate.surface === surface);
  if (!entry) throw new Error(`No extractor for ${surface}`);
  const extractor = await entry.load();
  const extracted: Extracted = extractor.extractWithFiles ? await extractor.extractWithFiles(options) : { report: await extractor.extract(options) };
  parentPort!.postMessage({ extracted });
} catch (error) {
  parentPort!.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
