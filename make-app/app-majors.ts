// make-app/app-majors.json: which Make app serves which major version of this project, in each
// zone. Make applies a deploy to every scenario using an app at once, and a breaking release goes
// out as a new app (Make's advice); from then on each app takes only the deploys of its own
// majors. An app serves the majors from its `fromMajor` up to the next app's of the same zone.
// Kept beside the origins file (make-app/origins.json) and committed with it; `npm run
// make:deploy` adds an app the first time it deploys it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface AppMajor {
  /** The zone's host, as MAKE_ZONE names it (eu1.make.com). */
  readonly zone: string;
  /** The app's name in Make (MAKE_APP_NAME). */
  readonly app: string;
  /** The first major version of this project the app serves. */
  readonly fromMajor: number;
}

/** The record beside an origins file: make-app/app-majors.json beside make-app/origins.json. */
export const appMajorsBeside = (originsFile: string): string => join(dirname(originsFile), 'app-majors.json');

/** The record cannot be used: it says which entry and why. */
export class AppMajorsError extends Error {}

export function readAppMajors(file: string): AppMajor[] {
  if (!existsSync(file)) return [];
  let records: unknown;
  try {
    records = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AppMajorsError(`${file} is not JSON (${(error as Error).message}): it must hold a list of {"zone", "app", "fromMajor"}.`);
  }
  if (!Array.isArray(records)) throw new AppMajorsError(`${file} must hold a JSON list of {"zone", "app", "fromMajor"}.`);
  records.forEach((record: Partial<Record<keyof AppMajor, unknown>>, index) => {
    const { zone, app, fromMajor } = record ?? {};
    if (typeof zone !== 'string' || zone === '' || typeof app !== 'string' || app === '' || !Number.isInteger(fromMajor) || (fromMajor as number) < 0) {
      throw new AppMajorsError(
        `${file}, entry ${index + 1}: give "zone" and "app" as text and "fromMajor" as a whole number from 0; got ${JSON.stringify(record)}.`,
      );
    }
    const twin = (records as AppMajor[]).findIndex((other, at) => at < index && other.zone === zone && (other.app === app || other.fromMajor === fromMajor));
    if (twin >= 0) {
      throw new AppMajorsError(`${file}, entries ${twin + 1} and ${index + 1}: each app of a zone is listed once, and each first major has one app.`);
    }
  });
  return records as AppMajor[];
}

export const writeAppMajors = (records: readonly AppMajor[], file: string): void => writeFileSync(file, `${JSON.stringify(records, null, 2)}\n`);
