/**
 * Moving users from one version of the Zapier app to another (`zapier-platform migrate FROM TO
 * PERCENT`), the way Zapier advises (docs.zapier.com/integrations/manage/migrate): only between
 * versions of one major, since a major is a breaking change that users take up by editing their
 * Zaps (Zapier blocks a cross-major migration itself since 2026-02-26:
 * docs.zapier.com/integrations/news/2026/migrations-same-major-version), and a small share of
 * users first, the rest once the Monitoring tab shows the new version working. Checked here
 * before Zapier is asked, so a mistyped version or share stops with what to fix.
 */

/** The share a migration moves unless told otherwise: a small one, then more once it works. */
export const FIRST_SHARE = 10;

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export type MigrationPlan = { readonly args: readonly string[]; readonly note?: string } | { readonly problem: string };

export function planMigration(from: string, to: string, percent: string = String(FIRST_SHARE)): MigrationPlan {
  const [f, t] = [from.trim(), to.trim()];
  for (const [name, value] of [
    ['FROM', f],
    ['TO', t],
  ] as const) {
    if (!VERSION.test(value))
      return { problem: `${name} must be a version of the app such as 1.4.0 (as \`zapier-platform versions\` lists them); got ${JSON.stringify(value)}.` };
  }
  if (f === t) return { problem: `FROM and TO are both ${f}: there is nothing to move.` };
  const major = (version: string) => version.split('.')[0];
  if (major(f) !== major(t)) {
    return {
      problem: `Not migrating across majors (${f} → ${t}): a new major version is a breaking change, which Zaps take up only when their owners edit them. Zapier refuses it too; promote ${t} and let users move (or deprecate ${f}) instead.`,
    };
  }
  const share = percent.trim();
  if (!/^\d+$/.test(share) || Number(share) < 1 || Number(share) > 100) {
    return { problem: `PERCENT must be a whole number from 1 to 100 (the share of ${f}'s users to move); got ${JSON.stringify(percent)}.` };
  }
  const note =
    Number(share) === 100
      ? undefined
      : `Moves ${share}% of the users of ${f} to ${t}. Watch the Monitoring tab, then run it again with a larger share (up to 100).`;
  return { args: ['migrate', f, t, share], ...(note ? { note } : {}) };
}
