import { type ListPage, listPeople, type Reader } from './reader.ts';
import { linkOf, objectOf, personFrom, type SourcePerson } from './source-person.ts';

/**
 * Grafana OnCall's people: List Users (`GET /api/v1/users/`), following `next` until it is null
 * or a page is empty (HTTP API reference, Pagination). `next` is an absolute URL the engine
 * builds from its own BASE_URL setting (common/api_helpers/paginators.py), which behind a proxy
 * is often not the URL people reach it at: its query (`page`) is asked of the configured base.
 * A user has `email`, `username` (which stands in for a name: the API gives none) and `role`;
 * no phone number and no invitation state.
 */
export const readGrafanaOnCall: Reader = (http, options) => {
  const list = http.url('/api/v1/users/');
  const readPage = async (url: URL): Promise<ListPage> => {
    const page = objectOf(await http.getJson(url, 'list users'));
    const results = page?.['results'];
    if (!page || !Array.isArray(results)) throw http.invalid('a List Users page without a "results" list');
    const next = results.length === 0 ? undefined : linkOf(page['next']);
    return { entries: results, total: page['count'], next: () => (next === undefined ? undefined : http.nextPage(next, 'next', list)) };
  };
  return listPeople(http, options.hooks, list, readPage, personOf);
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
