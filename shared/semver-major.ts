/**
 * `2.1.0` → 2: semver's major, which decides what a release may break. The release check
 * (scripts/api) and the Make deploy (which app serves which major) read a version the same way.
 */
export function majorOf(version: string): number {
  const match = /^(\d+)\.\d+\.\d+(?:[-+].*)?$/.exec(version);
  if (!match) throw new Error(`"${version}" is not a semver version (MAJOR.MINOR.PATCH).`);
  return Number(match[1]);
}
