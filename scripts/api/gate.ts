import { n8nVersionOf } from './advice.ts';
import type { Difference, SurfaceReport } from './model.ts';

/**
 * Whether a difference since the released version may ship in this version. A compatible one
 * always may; a breaking one only in a new major version, except on n8n: a saved workflow keeps
 * its node's typeVersion whatever the package's version, so a breaking change inside a
 * typeVersion that is still offered breaks it even in a major release. There it is made as a new
 * typeVersion that keeps the old one, which the check reports as compatible. Removing an item
 * that was hidden in the released version (the end of retiring it) is the exception: a major
 * version may, on every surface.
 */
export function mayShip(difference: Difference, fresh: SurfaceReport | undefined, majorWentUp: boolean): boolean {
  if (difference.verdict === 'compatible') return true;
  if (difference.surface === 'n8n') {
    const at = n8nVersionOf(difference.id);
    const versionItem = at && `node/${at.node}/v${at.version}`;
    const kept = versionItem !== undefined && difference.id !== versionItem && fresh?.items.some((item) => item.id === versionItem);
    // Retiring is the one removal a major may make there: hidden in a release, removed in a later major one.
    if (kept) return majorWentUp && difference.retiring === true;
  }
  return majorWentUp;
}
