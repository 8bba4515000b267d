import { pathToFileURL } from 'node:url';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshReports } from './fresh-reports.ts';
import { checkoutRoot, packageVersion, RELEASED_VERSION_FILE, releasedDir, writeReportFile } from './report-files.ts';

/**
 * `npm run api:release`: what a release-prep commit runs once package.json has the version to
 * release. It writes the fresh reports into api/released/ with that version, so the next
 * changes are compared with what users now have.
 */
export async function recordRelease(root = checkoutRoot()): Promise<{ version: string; surfaces: string[] }> {
  const version = packageVersion(root);
  const dir = releasedDir(root);
  const reports = await freshReports();
  for (const report of reports) writeReportFile(dir, report);
  writeFileSync(join(dir, RELEASED_VERSION_FILE), `${version}\n`);
  return { version, surfaces: reports.map((report) => report.surface) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { version, surfaces } = await recordRelease();
  console.log(`api/released/ now holds ${version}'s interface of ${surfaces.join(', ')}: commit it with the release.`);
}
