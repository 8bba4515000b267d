import { InvalidResponseError } from '../errors.ts';
import type { Source } from './sources.ts';

/**
 * The most people an import reads: about what a 10 MiB sync file holds (read-file.ts), so a
 * source that never stops listing (broken, or hostile) ends in an error, not in memory running out.
 */
export const MAX_PEOPLE = 100_000;

/** The most pages: 100 people a page gives 1,000 for MAX_PEOPLE; a source handing out one person a page still ends. */
export const MAX_PAGES = 20_000;

/**
 * Reading every page once, and ending: a page asked for twice (a `next` that loops back), a page
 * of people all read before (a source that ignores the offset), more pages or people than any
 * directory has, each stop the import with an error: nothing is written from a list that may
 * be incomplete. People seen on two pages (the list changed while it was read) are kept once and counted.
 */
export class PageGuard {
  private readonly source: Source;
  private readonly asked = new Set<string>();
  private readonly seen = new Set<string>();
  pages = 0;
  /** People listed again on a later page, kept once. */
  repeats = 0;

  constructor(source: Source) {
    this.source = source;
  }

  /** Before asking for a page. */
  asking(url: URL): void {
    const key = url.href;
    if (this.asked.has(key)) throw this.stop(`page ${this.pages + 1} would ask again for a page already read (${url.pathname}${url.search}): the paging loops`);
    this.asked.add(key);
    if (this.pages >= MAX_PAGES) throw this.stop(`it kept giving pages past ${MAX_PAGES}`);
  }

  /** A page came with these people's ids: the ones not seen before, to keep. */
  read<T extends { id: string }>(people: readonly T[]): T[] {
    this.pages += 1;
    const before = this.seen.size;
    const fresh = people.filter((person) => {
      if (this.seen.has(person.id)) return false;
      this.seen.add(person.id);
      return true;
    });
    if (people.length > 0 && before > 0 && fresh.length === 0) {
      throw this.stop(`page ${this.pages} gave only people already read on earlier pages: the source is not paging`);
    }
    this.repeats += people.length - fresh.length;
    if (this.seen.size > MAX_PEOPLE) throw this.stop(`it listed more than ${MAX_PEOPLE} people, more than a sync file holds: import a part at a time`);
    return fresh;
  }

  private stop(why: string): InvalidResponseError {
    return new InvalidResponseError(`Stopped reading ${this.source.name}: ${why}. Nothing was written.`);
  }
}
