import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { compareReports, differenceLine } from './classify.ts';
import { freshExtractions, freshReports, surfacesOf } from './fresh-reports.ts';
import { keepDirIn } from './kept-reads.ts';
import { mayShip } from './gate.ts';
import type { Difference, SurfaceId, SurfaceReport } from './model.ts';
import { releaseNotes } from './notes.ts';
import { majorOf } from '../../shared/semver-major.ts';
import { checkoutRoot, packageVersion, readReleasedVersion, readReportFile, releasedDir, reportedSurfaces, reportsDir } from './report-files.ts';

/**
 * `npm run api:check`: reads every surface's public interface afresh from the checkout, then
 *  1. compares it with the committed reports (api/*.txt): any difference means they are stale,
 *     and each difference is printed with its verdict and what to do; run npm run api:update;
 *  2. compares it with the last released version's reports (api/released/): a breaking
 *     difference fails unless package.json's major version is above the released one (on n8n,
 *     not even then, inside a kept typeVersion: gate.ts).
 * Exit 0 when the reports are current and every difference since the release may ship.
 * `--notes` prints the release notes' Breaking and Compatible sections instead.
 */

const EMPTY = (surface: SurfaceId): SurfaceReport => ({ surface, items: [] });

export interface ReleaseComparison {
  readonly releasedVersion: string;
  readonly version: string;
  readonly differences: Difference[];
  /** Surfaces with no released report: everything they have counts as new. */
  readonly unreleased: SurfaceId[];
  readonly fresh: SurfaceReport[];
}

/** The fresh reports against api/released/, with the versions on both sides. */
export async function compareWithRelease(surfaces?: readonly SurfaceId[], fresh?: SurfaceReport[]): Promise<ReleaseComparison> {
  const root = checkoutRoot();
  const releasedVersion = readReleasedVersion(root);
  const version = packageVersion(root);
  const reports = fresh ?? (await freshReports(surfaces));
  const unreleased: SurfaceId[] = [];
  const differences = reports.flatMap((report) => {
    const released = readReportFile(releasedDir(root), report.surface);
    if (!released) unreleased.push(report.surface);
    return compareReports(released ?? EMPTY(report.surface), report);
  });
  return { releasedVersion, version, differences, unreleased, fresh: reports };
}

/** What the release helper asks: every difference since the released version, with both versions. */
export async function differencesSinceRelease(
  surfaces?: readonly SurfaceId[],
): Promise<{ releasedVersion: string; version: string; differences: Difference[] }> {
  const { releasedVersion, version, differences } = await compareWithRelease(surfaces);
  return { releasedVersion, version, differences };
}

/**
 * The breaking differences since the release that this version may not ship. A surface with no
 * released report has no users yet, so nothing of it can break a live automation.
 */
export function blockedSinceRelease(comparison: ReleaseComparison): Difference[] {
  const majorWentUp = majorOf(comparison.version) > majorOf(comparison.releasedVersion);
  return comparison.differences.filter(
    (difference) =>
      !comparison.unreleased.includes(difference.surface) &&
      !mayShip(
        difference,
        comparison.fresh.find((report) => report.surface === difference.surface),
        majorWentUp,
      ),
  );
}

export interface CheckResult {
  readonly stale: Difference[];
  readonly missing: SurfaceId[];
  readonly blocked: Difference[];
  readonly comparison: ReleaseComparison;
  readonly lines: string[];
  readonly ok: boolean;
}

const key = (difference: Difference) => `${difference.surface}\u0000${difference.id}\u0000${difference.change}`;

/** Runs both comparisons and says what it found, one line per difference; `timing` hears how long each surface took. */
export async function runCheck(
  surfaces?: readonly SurfaceId[],
  timing?: (surface: SurfaceId, ms: number, where: 'here' | 'thread') => void,
): Promise<CheckResult> {
  // What was read from unchanged sources in an earlier run is kept (kept-reads.ts).
  const fresh = (await freshExtractions(surfaces, { keepDir: keepDirIn(checkoutRoot()) }, timing)).map(({ report }) => report);
  const root = checkoutRoot();
  const missing: SurfaceId[] = [];
  const stale = fresh.flatMap((report) => {
    const committed = readReportFile(reportsDir(root), report.surface);
    if (!committed) {
      missing.push(report.surface);
      return [];
    }
    return compareReports(committed, report);
  });
  const comparison = await compareWithRelease(surfaces, fresh);
  const blocked = blockedSinceRelease(comparison);
  const lines: string[] = [];
  // A report no extractor writes any more: a surface dropped from the registry would otherwise leave the check silently.
  const orphans = surfaces
    ? []
    : [reportsDir(root), releasedDir(root)].flatMap((dir) =>
        reportedSurfaces(dir)
          .filter((surface) => !fresh.some((report) => report.surface === surface))
          .map((surface) => `${relative(root, dir)}/${surface}.txt`),
      );
  for (const file of orphans) {
    lines.push(
      `${file} has no extractor in scripts/api/surfaces/index.ts: a surface that was reported is no longer checked. Register its extractor again, or, if the surface is gone for good (a breaking change), delete the file.`,
    );
  }
  for (const surface of missing) lines.push(`api/${surface}.txt is missing: run npm run api:update and commit it.`);
  if (stale.length) {
    lines.push(`The committed reports (api/) are not current: ${stale.length} difference${stale.length === 1 ? '' : 's'}.`);
    for (const difference of stale) lines.push(differenceLine(difference));
    lines.push(
      "Run npm run api:update and commit api/ (the diff is what reviewers see); a breaking difference also needs its platform's way, as each line says.",
    );
  }
  for (const surface of comparison.unreleased) {
    lines.push(
      `api/released/${surface}.txt is missing: ${surface} counts as never released (everything in it is new). If ${comparison.releasedVersion} shipped it, write it with npm run api:release.`,
    );
  }
  if (blocked.length) {
    const major = majorOf(comparison.version);
    const releasedMajor = majorOf(comparison.releasedVersion);
    const printed = new Set(stale.map(key));
    const already = blocked.filter((difference) => printed.has(key(difference)));
    const why =
      major > releasedMajor
        ? `its major ${major} is above ${releasedMajor}, but on n8n a major does not help: saved workflows keep their typeVersion`
        : `its major ${major} is not above ${releasedMajor}${blocked.some((d) => d.surface === 'n8n') ? '; on n8n a major would not help either: saved workflows keep their typeVersion' : ''}`;
    lines.push(
      `${blocked.length} breaking difference${blocked.length === 1 ? '' : 's'} since the released version ${comparison.releasedVersion} may not ship in ${comparison.version} (${why}):`,
    );
    if (already.length) lines.push(`  ${already.length} of them listed above.`);
    for (const difference of blocked) if (!printed.has(key(difference))) lines.push(differenceLine(difference));
  }
  const ok = !missing.length && !stale.length && !blocked.length && !orphans.length;
  if (ok) {
    const since = comparison.differences.length;
    lines.push(
      `api:check: ${fresh.length} surface${fresh.length === 1 ? '' : 's'} (${fresh.map((r) => r.surface).join(', ')}), ${fresh.reduce((n, r) => n + r.items.length, 0)} items: the reports are current; ${since} difference${since === 1 ? '' : 's'} since ${comparison.releasedVersion}, none that ${comparison.version} may not ship.`,
    );
  }
  return { stale, missing, blocked, comparison, lines, ok };
}

async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: { notes: { type: 'boolean', default: false }, surface: { type: 'string', multiple: true }, timing: { type: 'boolean', default: false } },
    strict: true,
  });
  const surfaces = values.surface ? surfacesOf(values.surface as SurfaceId[]) : undefined;
  if (values.notes) {
    const { releasedVersion, version, differences } = await differencesSinceRelease(surfaces);
    process.stdout.write(releaseNotes(differences, releasedVersion, version));
    return 0;
  }
  const started = performance.now();
  // On stderr: how long each surface took (the client's on a thread of its own, beside the others), never part of the verdict.
  const timing = values.timing
    ? (surface: SurfaceId, ms: number, where: 'here' | 'thread') =>
        console.error(`api:check timing: ${surface} ${Math.round(ms)} ms${where === 'thread' ? ' (on its own thread, beside the others)' : ''}`)
    : undefined;
  const result = await runCheck(surfaces, timing);
  if (values.timing) console.error(`api:check timing: all surfaces read in ${Math.round(performance.now() - started)} ms`);
  for (const line of result.lines) (result.ok ? console.log : console.error)(line);
  return result.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`api:check could not run: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 2;
    },
  );
}
