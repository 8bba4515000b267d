import { PageGuard } from './page-guard.ts';
import { plausibleTotal, type Reader } from './reader.ts';
import { objectOf, personFrom, type SourcePerson } from './source-person.ts';

/**
 * Grafana OnCall's people: List Users (`GET /api/v1/users/`), following `next` (an absolute URL
 * the engine builds) until it is null (HTTP API reference, Pagination). A user has `email`,
 * `username` (which stands in for a name: the API gives none) and `role`; no phone number and
 * no invitation state.
 */
export const readGrafanaOnCall: Reader = async (http, options) => {
  const guard = new PageGuard(http.source);
  const people: SourcePerson[] = [];
  let url: URL | undefined = http.url('/api/v1/users/');
  let total: number | undefined;
  while (url) {
    guard.asking(url);
    const page = objectOf(await http.getJson(url, 'list users'));
    const results = page?.['results'];
    if (!page || !Array.isArray(results)) throw http.invalid('a List Users page without a "results" list');
    total ??= plausibleTotal(page['count']);
    people.push(...guard.read(results.map((item, at) => personOf(item, `page ${guard.pages + 1}, entry ${at + 1}`))));
    options.hooks?.listed?.(people.length, total);
    const next = page['next'];
    url = next === undefined || next === null || next === '' ? undefined : http.linked(next, 'next');
  }
  return { people, pages: guard.pages, repeats: guard.repeats };
};

function personOf(item: unknown, at: string): SourcePerson {
  return personFrom(item, at, (user, id) => ({
    id,
    email: user['email'],
    name: user['username'],
    role: typeof user['role'] === 'string' ? user['role'] : undefined,
    state: 'active',
    phones: undefined,
  }));
}
