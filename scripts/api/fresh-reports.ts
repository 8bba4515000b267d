import type { ExtractOptions, SurfaceId, SurfaceReport } from './model.ts';
import { extractors } from './surfaces/index.ts';

/** The registered surfaces, or the ones asked for (an unknown one is an error naming the known ones). */
export function surfacesOf(asked?: readonly SurfaceId[]): SurfaceId[] {
  const known = extractors.map((entry) => entry.surface);
  if (!asked) return known;
  const unknown = asked.filter((surface) => !known.includes(surface));
  if (unknown.length) throw new Error(`No extractor for ${unknown.join(', ')}: the surfaces are ${known.join(', ')}.`);
  return known.filter((surface) => asked.includes(surface));
}

/** Reads each surface's interface afresh from the checkout's source (built in memory or in a temporary folder, never dist/). */
export async function freshReports(asked?: readonly SurfaceId[], options: ExtractOptions = {}): Promise<SurfaceReport[]> {
  const wanted = surfacesOf(asked);
  const reports: SurfaceReport[] = [];
  // One after another: the extractors that build (API Extractor) are CPU-bound, and the order of the output stays fixed.
  for (const entry of extractors) {
    if (!wanted.includes(entry.surface)) continue;
    const extractor = await entry.load();
    const report = await extractor.extract(options);
    if (report.surface !== entry.surface) throw new Error(`The extractor registered for ${entry.surface} reported ${report.surface}.`);
    reports.push(report);
  }
  return reports;
}
