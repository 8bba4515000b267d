import { NotFoundError } from '../errors.ts';
import { PageGuard } from './page-guard.ts';
import type { SourcePhone } from './phones.ts';
import { eachAtMost, plausibleTotal, wanted, type Reader } from './reader.ts';
import type { SourceHttp } from './source-http.ts';
import { linkOf, objectOf, personFrom, type SourcePerson } from './source-person.ts';

/** The most users a List User page gives (Pagination: "maximum value is 100"). */
const PAGE_SIZE = 100;

/** Contact methods that carry a phone number (Contact API: email, sms, voice; mobile is the app). */
const PHONE_METHODS: ReadonlySet<string> = new Set(['sms', 'voice']);

/**
 * Opsgenie's people: List User (`GET /v2/users?limit=100&offset=0`), following `paging.next`
 * until a page has none or is empty (User API, Pagination), each link's query asked of the
 * configured base; then each kept user's contact methods
 * (`GET /v2/users/{id}/contacts`, Contact API), four at a time, for their phone numbers.
 * A user's `role.name` is its role; `blocked: true` is blocked, `verified: false` only invited.
 */
export const readOpsgenie: Reader = async (http, options) => {
  const guard = new PageGuard(http.source);
  const people: SourcePerson[] = [];
  const list = http.url('/v2/users');
  let url: URL | undefined = http.url('/v2/users', { limit: String(PAGE_SIZE), offset: '0' });
  let total: number | undefined;
  while (url) {
    guard.asking(url);
    const page = objectOf(await http.getJson(url, 'list users'));
    const data = page?.['data'];
    if (!page || !Array.isArray(data)) throw http.invalid('a List User page without a "data" list');
    total ??= plausibleTotal(page['totalCount']);
    people.push(...guard.read(data.map((item, at) => personOf(item, `page ${guard.pages + 1}, entry ${at + 1}`))));
    options.hooks?.listed?.(people.length, total);
    const next = data.length === 0 ? undefined : linkOf(objectOf(page['paging'])?.['next']);
    url = next === undefined ? undefined : http.nextPage(next, 'paging.next', list);
  }

  const detailed = people.filter((person) => wanted(person, options.includeInvited));
  options.hooks?.detailing?.(detailed.length);
  const withPhones = new Map<string, SourcePerson>();
  await eachAtMost(detailed, options.concurrency, async (person) => {
    withPhones.set(person.id, await withContacts(http, person));
    options.hooks?.detailed?.();
  });
  return { people: people.map((person) => withPhones.get(person.id) ?? person), pages: guard.pages, repeats: guard.repeats };
};

function personOf(item: unknown, at: string): SourcePerson {
  return personFrom(item, at, (user, id) => {
    const role = objectOf(user['role'])?.['name'] ?? user['role'];
    return {
      id,
      email: user['username'],
      name: user['fullName'],
      role: typeof role === 'string' ? role : undefined,
      state: user['blocked'] === true ? 'blocked' : user['verified'] === false ? 'invited' : 'active',
      phones: [],
    };
  });
}

/** The person with their phone numbers, in `applyOrder`; one the source no longer knows (404) is `gone`. */
async function withContacts(http: SourceHttp, person: SourcePerson): Promise<SourcePerson> {
  let answer: unknown;
  try {
    answer = await http.getJson(http.url(`/v2/users/${encodeURIComponent(person.id)}/contacts`), 'list contacts');
  } catch (error) {
    if (error instanceof NotFoundError) return { ...person, gone: true };
    throw error;
  }
  const data = objectOf(answer)?.['data'];
  if (!Array.isArray(data)) throw http.invalid('a List Contacts answer without a "data" list');
  const contacts = data
    .map((item, at) => ({ contact: objectOf(item), at }))
    .filter((entry): entry is { contact: Record<string, unknown>; at: number } => entry.contact !== undefined)
    .filter(({ contact }) => typeof contact['method'] === 'string' && PHONE_METHODS.has(contact['method']) && typeof contact['to'] === 'string');
  // By applyOrder, those without one last; the list's order among equals.
  const order = ({ contact }: { contact: Record<string, unknown> }) =>
    typeof contact['applyOrder'] === 'number' && Number.isFinite(contact['applyOrder']) ? contact['applyOrder'] : Number.POSITIVE_INFINITY;
  const phones: SourcePhone[] = contacts
    .sort((a, b) => (order(a) === order(b) ? a.at - b.at : order(a) < order(b) ? -1 : 1))
    .map(({ contact }) => {
      const status = objectOf(contact['status']);
      const usable = status?.['enabled'] !== false;
      const reason = typeof status?.['disabledReason'] === 'string' ? status['disabledReason'].slice(0, 60) : undefined;
      return {
        raw: internationalOf(contact['to'] as string),
        method: contact['method'] as string,
        usable,
        why: usable ? undefined : `disabled${reason ? `: ${reason}` : ''}`,
      };
    });
  return { ...person, phones };
}

/**
 * Opsgenie writes a number as its country calling code, a dash, and the number (`1-4155550123`,
 * the Contacts API's samples): as `+1 4155550123`. Any other form is passed on as it came.
 */
const internationalOf = (to: string): string => to.trim().replace(/^(\d{1,3})-(?=\d)/, '+$1 ');
