// After a breaking release goes out as a new Make app, the old app still carries every scenario
// built on the older major. A deploy of the new major to it (a forgotten MAKE_APP_NAME) passes the
// release check, since nothing changed since the new major's release, and would put the new
// interface under all those scenarios at once. So the deploy reads which app serves which major
// (make-app/app-majors.json) and refuses, before any request, an app that does not serve the
// major being deployed.
import type { AppMajor } from '../app-majors.ts';
import { majorOf } from '../../shared/semver-major.ts';

/** What is deployed where. */
export interface Deployment {
  readonly zone: string;
  readonly app: string;
  /** This checkout's version (package.json), whose major the app must serve. */
  readonly version: string;
  /** Deployed as a new app (`--new-app`). */
  readonly newApp: boolean;
}

export type MajorCheck =
  | { readonly ok: true /** The app to add to the record once deployed (its first deploy). */; readonly record?: AppMajor }
  | { readonly ok: false; readonly lines: string[]; readonly refused: Record<string, unknown> };

/** The majors an app serves: from its first up to the next app's of its zone, exclusive (none: and on). */
export function servedMajors(zoneRecords: readonly AppMajor[], record: AppMajor): { from: number; to: number | undefined } {
  const later = zoneRecords.map((other) => other.fromMajor).filter((from) => from > record.fromMajor);
  return { from: record.fromMajor, to: later.length ? Math.min(...later) - 1 : undefined };
}

const serves = (range: { from: number; to: number | undefined }, major: number) => major >= range.from && (range.to === undefined || major <= range.to);

/** "major 1", "majors 1 to 2", "major 2 and later". */
export function majorsText({ from, to }: { from: number; to: number | undefined }): string {
  if (to === undefined) return `major ${from} and later`;
  return from === to ? `major ${from}` : `majors ${from} to ${to}`;
}

/**
 * May this deployment go ahead? An app in the record must serve this major. An app not in it may
 * be the first of its zone, or a new app (`--new-app`) for a major above every recorded app's
 * first; both are recorded once deployed. Anything else is refused, naming the app, the majors it
 * serves, this version's major and the app that serves it.
 */
export function checkAppMajor(records: readonly AppMajor[], deployment: Deployment, file: string): MajorCheck {
  const { zone, app, version, newApp } = deployment;
  const major = majorOf(version);
  const inZone = records.filter((record) => record.zone === zone);
  const own = inZone.find((record) => record.app === app);
  const servingApp = inZone.find((record) => serves(servedMajors(inZone, record), major));
  const serving = servingApp ? `app ${servingApp.app} serves major ${major}` : `no app of ${zone} in the record serves major ${major}`;
  const refused = (lines: string[], facts: Record<string, unknown> = {}): MajorCheck => ({
    ok: false,
    lines: [...lines, 'Nothing was sent.'],
    refused: { zone, app, version, major, ...(servingApp ? { appForMajor: servingApp.app } : {}), record: file, ...facts },
  });

  if (own) {
    const range = servedMajors(inZone, own);
    if (serves(range, major)) return { ok: true };
    return refused(
      [
        `Not deploying to app ${app}: on ${zone} it serves ${majorsText(range)} (${file}), and this is ${version}, major ${major}; ${serving}.`,
        `Make applies a deploy to every scenario using the app at once: the scenarios built on ${majorsText(range)} would get major ${major}'s interface.`,
        servingApp
          ? `Deploy major ${major} to its app: MAKE_APP_NAME=${servingApp.app}.`
          : `Deploy major ${major} as a new app (--new-app <name>), or record the app that serves it in ${file}.`,
      ],
      { servesMajors: range },
    );
  }
  const record = { zone, app, fromMajor: major };
  if (inZone.length === 0) return { ok: true, record };
  const latest = Math.max(...inZone.map((other) => other.fromMajor));
  if (newApp && major > latest) return { ok: true, record };
  const known = inZone.map((other) => `${other.app} serves ${majorsText(servedMajors(inZone, other))}`).join(', ');
  if (newApp) {
    return refused([
      `Not deploying the new app ${app}: on ${zone}, ${serving} already (${file}: ${known}), and this is ${version}.`,
      `A new app takes a new major, so that each major has one app: release the breaking change as major ${latest + 1}.`,
    ]);
  }
  return refused([
    `Not deploying to app ${app}: ${file} records which app serves which major on ${zone}, and not this one: ${known}. This is ${version}, major ${major}.`,
    servingApp
      ? `Deploy it to its app: MAKE_APP_NAME=${servingApp.app}. A breaking change goes to a new app with --new-app <name>.`
      : 'A breaking change goes to a new app with --new-app <name>.',
    `An app deployed before the record knew it is added by hand: {"zone": "${zone}", "app": "${app}", "fromMajor": <the first major it served>}.`,
  ]);
}

/** What a dry run or a deploy says of an app it adds to the record. */
export const recordLine = (record: AppMajor, file: string, done: boolean): string =>
  `${done ? 'Recorded' : 'Would record'} in ${file}: app ${record.app} serves major ${record.fromMajor} and later on ${record.zone}${done ? ' (commit it)' : ''}.`;
