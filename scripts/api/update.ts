import { pathToFileURL } from 'node:url';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshExtractions } from './fresh-reports.ts';
import { keepDirIn } from './kept-reads.ts';
import { checkoutRoot, reportFile, reportsDir, writeReportFile } from './report-files.ts';

/**
 * `npm run api:update`: writes each surface's public interface afresh into api/<surface>.txt
 * (never api/released/, which only a release-prep commit writes). Files whose bytes would not
 * change are left alone, so a clean checkout stays clean.
 */
export async function updateReports(dir = reportsDir(checkoutRoot())): Promise<string[]> {
  const changed: string[] = [];
  // A report and the files beside it (API Extractor's own client.api.md, what TypeScript reviewers read) come from one build.
  for (const { report, beside } of await freshExtractions(undefined, { keepDir: keepDirIn(checkoutRoot()) })) {
    if (writeReportFile(dir, report)) changed.push(reportFile(dir, report.surface));
    for (const [name, text] of Object.entries(beside ?? {})) {
      const path = join(dir, name);
      if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
      writeFileSync(path, text);
      changed.push(path);
    }
  }
  return changed;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const changed = await updateReports();
  console.log(changed.length ? `Wrote ${changed.join(', ')}: review the diff, then commit it.` : 'The reports in api/ were already current.');
}
