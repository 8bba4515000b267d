import { pathToFileURL } from 'node:url';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshReports, surfacesOf } from './fresh-reports.ts';
import { checkoutRoot, reportFile, reportsDir, writeReportFile } from './report-files.ts';
import { CLIENT_API_MARKDOWN, extractClientWithMarkdown } from './surfaces/client.ts';

/**
 * `npm run api:update`: writes each surface's public interface afresh into api/<surface>.txt
 * (never api/released/, which only a release-prep commit writes). Files whose bytes would not
 * change are left alone, so a clean checkout stays clean.
 */
export async function updateReports(dir = reportsDir(checkoutRoot())): Promise<string[]> {
  const changed: string[] = [];
  // The client's report and API Extractor's own api.md (what TypeScript reviewers read) come from one build.
  const client = await extractClientWithMarkdown();
  const others = await freshReports(surfacesOf().filter((surface) => surface !== 'client'));
  for (const report of [...others, client.report]) if (writeReportFile(dir, report)) changed.push(reportFile(dir, report.surface));
  const markdown = join(dir, CLIENT_API_MARKDOWN);
  if (!existsSync(markdown) || readFileSync(markdown, 'utf8') !== client.markdown) {
    writeFileSync(markdown, client.markdown);
    changed.push(markdown);
  }
  return changed;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const changed = await updateReports();
  console.log(changed.length ? `Wrote ${changed.join(', ')}: review the diff, then commit it.` : 'The reports in api/ were already current.');
}
