import type { Team } from '../schemas/team.ts';

/**
 * The order a walk that can be continued reads the teams in: by id, which a team keeps when it
 * is renamed, rather than the order `allteams` lists them in, which the reference does not
 * promise to keep from one call to the next. Digit runs compare as numbers (`team_2` before
 * `team_10`), so ids that count read in their natural order; everything else compares by code
 * unit, with no locale, so the order is the same on every machine and every version of Node.
 */

type Chunk = string | bigint;

/** `team_0010x` → ['team_', 10n, 'x']. */
function chunksOf(id: string): Chunk[] {
  return (id.match(/[0-9]+|[^0-9]+/g) ?? []).map((chunk) => (/^[0-9]/.test(chunk) ? BigInt(chunk) : chunk));
}

const codeUnitOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compareChunks(a: Chunk, b: Chunk): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  // A number and a text differ at their first character: a digit against anything but one.
  if (typeof a === 'bigint') return codeUnitOrder('0', b as string);
  if (typeof b === 'bigint') return codeUnitOrder(a, '0');
  return codeUnitOrder(a, b);
}

/**
 * A total order on ids: chunk by chunk, then (for `01` against `1`, equal as numbers) by code
 * unit, so two different ids never compare equal and a position between them is exact.
 */
export function compareTeamIds(a: string, b: string): number {
  return compareChunkLists(chunksOf(a), chunksOf(b)) || codeUnitOrder(a, b);
}

function compareChunkLists(a: readonly Chunk[], b: readonly Chunk[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareChunks(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/** The teams in id order (each id split once, not at every comparison); teams sharing an id keep the service's order. */
export function inIdOrder<T extends Team>(teams: readonly T[]): T[] {
  const keyed = teams.map((team, index) => ({ team, index, chunks: chunksOf(team.id) }));
  keyed.sort((a, b) => compareChunkLists(a.chunks, b.chunks) || codeUnitOrder(a.team.id, b.team.id) || a.index - b.index);
  return keyed.map((entry) => entry.team);
}

/**
 * Where a walk goes on in teams sorted by `inIdOrder`: the first team whose id is not before
 * `teamId`. A team added or removed elsewhere in the list does not move it; the team it names,
 * removed meanwhile, leaves it at the team after.
 */
export function indexFrom(sorted: readonly Team[], teamId: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareTeamIds(sorted[middle]!.id, teamId) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
