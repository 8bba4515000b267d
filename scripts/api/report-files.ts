import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeWholeFile } from '../../shared/whole-file.ts';
import type { SurfaceId, SurfaceReport } from './model.ts';
import { readReport, writeReport } from './report-text.ts';

/**
 * Where the reports live: `api/<surface>.txt`, the interface as the branch has it (written by
 * `npm run api:update`), and `api/released/`, the interface of the last released version with a
 * file naming that version (written by `npm run api:release` in a release-prep commit).
 */

/** The checkout these scripts are in: the one whose source the extractors read. */
export const checkoutRoot = () => fileURLToPath(new URL('../../', import.meta.url));
export const reportsDir = (root = checkoutRoot()) => join(root, 'api');
export const releasedDir = (root = checkoutRoot()) => join(root, 'api', 'released');
export const RELEASED_VERSION_FILE = 'VERSION';

export const reportFile = (dir: string, surface: SurfaceId) => join(dir, `${surface}.txt`);

/** A committed report, or undefined when there is none. */
export function readReportFile(dir: string, surface: SurfaceId): SurfaceReport | undefined {
  const file = reportFile(dir, surface);
  if (!existsSync(file)) return undefined;
  return readReport(surface, readFileSync(file, 'utf8'), file);
}

/** Writes a report whole or not at all; returns whether the bytes changed. */
export function writeReportFile(dir: string, report: SurfaceReport): boolean {
  const file = reportFile(dir, report.surface);
  const text = writeReport(report);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  mkdirSync(dirname(file), { recursive: true });
  writeWholeFile(file, text);
  return true;
}

/** The surfaces that have a report in a folder. */
export const reportedSurfaces = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.txt'))
        .map((name) => name.slice(0, -'.txt'.length))
    : [];

export function readReleasedVersion(root = checkoutRoot()): string {
  const file = join(releasedDir(root), RELEASED_VERSION_FILE);
  if (!existsSync(file)) throw new Error(`${file} is missing: it names the last released version. Run npm run api:release in the release-prep commit.`);
  return readFileSync(file, 'utf8').trim();
}

export function packageVersion(root = checkoutRoot()): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}
