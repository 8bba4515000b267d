// Make applies a change to a custom app at once, to every scenario that uses it, and has no way
// to keep the old version running beside the new one; for a breaking change its advice is a new
// app. So a deploy first asks what changed on the Make surface since the released version
// (api:check's comparison with api/released/make.txt) and refuses a breaking difference unless
// it is told to deploy as a new app, which no scenario uses yet.

/** One difference of the Make surface since the release, as api:check gives it (scripts/api/model.ts `Difference`). */
export interface SurfaceDifference {
  readonly id: string;
  readonly change: string;
  readonly verdict: 'breaking' | 'compatible';
  readonly advice: string;
}

export interface SinceRelease {
  readonly releasedVersion: string;
  readonly version: string;
  readonly differences: readonly SurfaceDifference[];
}

/** Asks what changed on the Make surface since the release: `npm run make:deploy` (scripts/make-deploy.ts) gives api:check's. */
export type ReleaseCheck = () => Promise<SinceRelease>;

/** The environment's equivalent of `--new-app <name>`. */
export const NEW_APP_ENV = 'MAKE_NEW_APP';

/** The breaking differences, one line each: the item (`module/<name>/…`, naming the module) and what changed. */
export function breakingLines(since: SinceRelease): string[] {
  return since.differences.filter((difference) => difference.verdict === 'breaking').map((difference) => `  - ${difference.id}: ${difference.change}`);
}

/** Why the deploy stops, what each difference is, and the two ways on. */
export function refusalLines(since: SinceRelease, appName: string | undefined): string[] {
  const lines = breakingLines(since);
  return [
    `Not deploying${appName ? ` to app ${appName}` : ''}: ${lines.length === 1 ? '1 breaking difference' : `${lines.length} breaking differences`} on the Make surface since the released version ${since.releasedVersion} (this is ${since.version}). Make applies a deploy to every scenario using the app at once, so each would break them:`,
    ...lines,
    `Nothing was sent. Either deploy as a new app, which no scenario uses yet (Make's advice for a breaking change): --new-app <name> (or ${NEW_APP_ENV}=<name>), and move scenarios to it at their owners' pace;`,
    'or keep the released interface (see npm run api:check) and deploy again. Retire a module instead of removing it: shared/operations/retiring.ts.',
  ];
}

/** How a dry run or a deploy as a new app says why it is a new app. */
export const newAppLines = (since: SinceRelease, appName: string): string[] => {
  const lines = breakingLines(since);
  if (lines.length === 0) return [`Deploying as the new app ${appName} (--new-app): it must not exist in Make yet.`];
  return [
    `Deploying as the new app ${appName} (--new-app), since ${lines.length === 1 ? '1 breaking difference' : `${lines.length} breaking differences`} since ${since.releasedVersion} would break the scenarios of the released app:`,
    ...lines,
  ];
};
