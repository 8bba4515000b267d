import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { blockedSinceRelease, compareWithRelease } from './check.ts';
import { differenceLine } from './classify.ts';
import { freshReports } from './fresh-reports.ts';
import type { SurfaceReport } from './model.ts';
import { checkoutRoot, packageVersion, RELEASED_VERSION_FILE, releasedDir, writeReportFile } from './report-files.ts';

/**
 * `npm run api:release`: what a release-prep commit runs once package.json has the version to
 * release. It writes the fresh reports into api/released/ with that version, so the next
 * changes are compared with what users now have. It refuses to bless what the check refuses (a
 * breaking change without a new major), and to say that an already released version had an
 * interface it did not have (package.json not moved on). A surface with no released report yet
 * is recorded at the current version: it was never released before.
 */
export async function recordRelease(root = checkoutRoot()): Promise<{ version: string; surfaces: string[] }> {
  const version = packageVersion(root);
  const dir = releasedDir(root);
  const reports: SurfaceReport[] = await freshReports();
  if (existsSync(join(dir, RELEASED_VERSION_FILE))) {
    const comparison = await compareWithRelease(undefined, reports);
    const blocked = blockedSinceRelease(comparison);
    if (blocked.length) {
      throw new Error(
        `${blocked.length} breaking difference(s) since ${comparison.releasedVersion} may not ship in ${version}; nothing written:\n${blocked.map(differenceLine).join('\n')}`,
      );
    }
    const changedReleased = comparison.differences.filter((difference) => !comparison.unreleased.includes(difference.surface));
    if (version === comparison.releasedVersion && changedReleased.length) {
      throw new Error(
        `package.json still says ${version}, the released version, and the interface has ${changedReleased.length} difference(s) since: set the version to release first (npm version minor, or major for a breaking one). Nothing written.`,
      );
    }
  }
  for (const report of reports) writeReportFile(dir, report);
  writeFileSync(join(dir, RELEASED_VERSION_FILE), `${version}\n`);
  return { version, surfaces: reports.map((report) => report.surface) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { version, surfaces } = await recordRelease();
    console.log(`api/released/ now holds ${version}'s interface of ${surfaces.join(', ')}: commit it with the release.`);
  } catch (error) {
    console.error(`api:release: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
