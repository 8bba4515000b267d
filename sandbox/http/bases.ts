/**
 * Every service path is served at the API base and at the rotations base, which is the API
 * base plus `/pagerly` (assumption `bases`).
 */
export const ROTATIONS_PREFIX = '/pagerly';
export const BASE_PREFIXES = ['', ROTATIONS_PREFIX] as const;

/** `/pagerly/o/currentusers?x=1` → `/o/currentusers`: the path as the catalog and faults name it. */
export function servicePath(url: string): string {
  const path = pathOf(url);
  return path.startsWith(`${ROTATIONS_PREFIX}/`) ? path.slice(ROTATIONS_PREFIX.length) : path;
}

export const pathOf = (url: string): string => url.split('?', 1)[0] ?? url;
