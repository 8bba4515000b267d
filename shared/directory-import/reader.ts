import { mapWithLimit } from '../map-with-limit.ts';
import { MAX_PEOPLE } from './page-guard.ts';
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

/**
 * A total a source announced, when it can be one: a whole number from 0 to MAX_PEOPLE, given as
 * a number or as its digits (a negative, absurd or missing one is ignored).
 */
export function plausibleTotal(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*\d{1,7}\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 && number <= MAX_PEOPLE ? number : undefined;
}

/** Whether a person's details are worth reading: the ones the import keeps. */
export const wanted = (person: SourcePerson, includeInvited: boolean): boolean =>
  !person.unreadable && (person.state === 'active' || (person.state === 'invited' && includeInvited));

/**
 * `task` for each item, at most `limit` at once; the first failure ends it: no item starts
 * after one failed (the requests in flight finish), and that failure is thrown.
 */
export async function eachAtMost<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
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
