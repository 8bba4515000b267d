import { mapWithLimit } from '../map-with-limit.ts';
import { MAX_PEOPLE, PageGuard } from './page-guard.ts';
import type { SourcePhone } from './phones.ts';
import type { SourceHttp } from './source-http.ts';
import type { SourcePerson } from './source-person.ts';

/** Told as the reading goes, for a progress bar. */
export interface ReadHooks {
  /** People listed so far, and the total the source announced (when it is a plausible one). */
  listed?(count: number, total: number | undefined): void;
  /** The details of `count` people are about to be read one request each (Opsgenie's contacts). */
  detailing?(count: number): void;
  /** One person's details were read. */
  detailed?(): void;
}

export interface ReadOptions {
  /** People not yet accepted are wanted: their details are read too. */
  readonly includeInvited: boolean;
  /** Requests at once for one-per-person details. */
  readonly concurrency: number;
  readonly hooks?: ReadHooks;
}

export interface SourceRead {
  readonly people: readonly SourcePerson[];
  readonly pages: number;
  /** People listed on two pages (the list changed while it was read), kept once. */
  readonly repeats: number;
}

/** Reads every person of a source, every page. */
export type Reader = (http: SourceHttp, options: ReadOptions) => Promise<SourceRead>;

/** One page of a source's list of users, as its reader took it apart. */
export interface ListPage {
  /** The page's entries, each read by the reader's `personOf`. */
  readonly entries: readonly unknown[];
  /** The total of people the page announced, if it gives one: the first plausible one is kept. */
  readonly total: unknown;
  /**
   * The page to ask for next, undefined at the end: worked out once this page is checked and
   * counted, so its problems are told first; `total` is the first plausible total announced.
   */
  readonly next: (total: number | undefined) => URL | undefined;
}

/**
 * Every page of a source's list of users, from `first` on, through a PageGuard (no page asked
 * twice, no list without end, people listed twice kept once), told to `hooks.listed` page by page.
 */
export async function listPeople(
  http: SourceHttp,
  hooks: ReadHooks | undefined,
  first: URL,
  readPage: (url: URL) => Promise<ListPage>,
  personOf: (entry: unknown, at: string) => SourcePerson,
): Promise<SourceRead> {
  const guard = new PageGuard(http.source);
  const people: SourcePerson[] = [];
  let total: number | undefined;
  for (let url: URL | undefined = first; url; ) {
    guard.asking(url);
    const page = await readPage(url);
    total ??= plausibleTotal(page.total);
    people.push(...guard.read(page.entries.map((entry, at) => personOf(entry, `page ${guard.pages + 1}, entry ${at + 1}`))));
    hooks?.listed?.(people.length, total);
    url = page.next(total);
  }
  return { people, pages: guard.pages, repeats: guard.repeats };
}

/**
 * The phones of the people the import keeps (`wanted`) whose list entry lacked them (`unread`),
 * read one request each, `options.concurrency` at once; a person gone meanwhile is marked `gone`.
 */
export async function readPhones(
  people: readonly SourcePerson[],
  options: ReadOptions,
  unread: (person: SourcePerson) => boolean,
  phones: DetailsReader<SourcePhone[]>,
): Promise<SourcePerson[]> {
  const pending = people.filter((person) => wanted(person, options.includeInvited) && unread(person));
  options.hooks?.detailing?.(pending.length);
  const read = new Map<string, SourcePerson>();
  await eachAtMost(pending, options.concurrency, async (person) => {
    const found = await phones.of(person.id);
    read.set(person.id, found === undefined ? { ...person, gone: true } : { ...person, phones: found });
    options.hooks?.detailed?.();
  });
  return people.map((person) => read.get(person.id) ?? person);
}

/**
 * A total a source announced, when it can be one: a whole number from 0 to MAX_PEOPLE, given as
 * a number or as its digits (a negative, absurd or missing one is ignored).
 */
export function plausibleTotal(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*\d{1,7}\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 && number <= MAX_PEOPLE ? number : undefined;
}

/** Whether a person's details are worth reading: the ones the import keeps. */
const wanted = (person: SourcePerson, includeInvited: boolean): boolean =>
  !person.unreadable && (person.state === 'active' || (person.state === 'invited' && includeInvited));

/**
 * `task` for each item, at most `limit` at once; the first failure ends it: no item starts
 * after one failed (the requests in flight finish), and that failure is thrown.
 */
async function eachAtMost<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let failed = false;
  await mapWithLimit(
    items,
    limit,
    async (item) => {
      try {
        await task(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    },
    () => failed,
  );
}

/**
 * A person's details by the first of two documented requests that serves them: `preferred`
 * unless it is known not to be served, else `fallback`. A 404 from `preferred` is either the
 * person removed meanwhile or a request the source does not serve (a stand-in, a proxy of part
 * of the API); `fallback` tells them apart: its 404 is a person gone (undefined), its answer the
 * details, and from then on `preferred` is not asked.
 */
export class DetailsReader<T> {
  private readonly preferred: (id: string) => Promise<T | undefined>;
  private readonly fallback: (id: string) => Promise<T | undefined>;
  private preferredServed = true;

  constructor(preferred: (id: string) => Promise<T | undefined>, fallback: (id: string) => Promise<T | undefined>) {
    this.preferred = preferred;
    this.fallback = fallback;
  }

  async of(id: string): Promise<T | undefined> {
    if (this.preferredServed) {
      const details = await this.preferred(id);
      if (details !== undefined) return details;
    }
    const details = await this.fallback(id);
    if (details !== undefined) this.preferredServed = false;
    return details;
  }
}
