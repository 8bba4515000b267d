import { pathToFileURL } from 'node:url';
import { freshReports } from './fresh-reports.ts';
import { checkoutRoot, reportFile, reportsDir, writeReportFile } from './report-files.ts';

/**
 * `npm run api:update`: writes each surface's public interface afresh into api/<surface>.txt
 * (never api/released/, which only a release-prep commit writes). Files whose bytes would not
 * change are left alone, so a clean checkout stays clean.
 */
export async function updateReports(dir = reportsDir(checkoutRoot())): Promise<string[]> {
  const changed: string[] = [];
  for (const report of await freshReports()) if (writeReportFile(dir, report)) changed.push(reportFile(dir, report.surface));
  return changed;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const changed = await updateReports();
  console.log(changed.length ? `Wrote ${changed.join(', ')}: review the diff, then commit it.` : 'The reports in api/ were already current.');
}
