import { distance } from 'fastest-levenshtein';

/** The most names an "unknown team" error suggests: enough to spot a typo, bounded however many teams there are. */
export const MAX_CLOSE_MATCHES = 10;

/** A suggested name is cut to this many characters: a team's name is the service's text, of any length. */
const MAX_NAME_CHARS = 60;

const fold = (text: string) => text.trim().toLowerCase();

/**
 * The names closest to what was typed, best first, at most `limit`: a name that starts with it,
 * then one that holds it (or is held by it), then one within a few typos (edit distance at most
 * a third of the longer text, and at least 2), ties broken by distance and then the order given.
 * Letter case and surrounding spaces do not count, as in the service's own matching.
 */
export function closeMatches(typed: string, names: readonly string[], limit = MAX_CLOSE_MATCHES): string[] {
  // What was typed is cut as a name is: the ranking costs at most that many characters a name.
  const wanted = fold(typed).slice(0, MAX_NAME_CHARS);
  if (!wanted) return [];
  const ranked: { name: string; rank: number; distance: number; index: number }[] = [];
  names.forEach((name, index) => {
    const folded = fold(name);
    // Only the first characters count: a name of a thousand characters is no one's typo.
    const apart = distance(wanted, folded.slice(0, wanted.length + MAX_NAME_CHARS));
    const rank = folded.startsWith(wanted)
      ? 0
      : folded.includes(wanted) || (folded && wanted.includes(folded))
        ? 1
        : apart <= Math.max(2, Math.floor(Math.max(wanted.length, folded.length) / 3))
          ? 2
          : -1;
    if (rank >= 0) ranked.push({ name, rank, distance: apart, index });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.distance - b.distance || a.index - b.index);
  return ranked.slice(0, limit).map((match) => match.name);
}

/** A name as an error quotes it: in double quotes (JSON's escaping, so quotes and line breaks in it stay readable), cut if long. */
export function quotedName(name: string): string {
  const trimmed = name.trim();
  return JSON.stringify(trimmed.length > MAX_NAME_CHARS ? `${trimmed.slice(0, MAX_NAME_CHARS - 1)}…` : trimmed);
}

/**
 * Names as a message lists them: the first ten, each cut if long, then how many more, so that
 * a failure of every team of a large organization (a rate limit met halfway) stays one line.
 */
export function someNames(names: readonly string[], limit = MAX_CLOSE_MATCHES): string {
  const shown = names.slice(0, limit).map((name) => {
    const trimmed = name.trim();
    return trimmed.length > MAX_NAME_CHARS ? `${trimmed.slice(0, MAX_NAME_CHARS - 1)}…` : trimmed;
  });
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more.toLocaleString('en-US')} more` : shown.join(', ');
}

/**
 * The sentence an unknown team name fails with, on every surface: the name as typed and at most
 * ten close matches, never the whole list (an organization may have thousands of teams).
 * `where` ends the first sentence, e.g. " in this organization".
 */
export function noTeamNamed(typed: string, teams: readonly { readonly name: string }[], where = ''): string {
  const matches = closeMatches(
    typed,
    teams.map((team) => team.name),
  );
  const said = `No team named ${quotedName(typed)}${where}.`;
  if (teams.length === 0) return `${said} The organization has no teams.`;
  if (matches.length === 0) return `${said} None of the organization's ${teams.length.toLocaleString('en-US')} teams has a close name.`;
  return `${said} Close ${matches.length === 1 ? 'match' : 'matches'}: ${matches.map(quotedName).join(', ')}.`;
}
