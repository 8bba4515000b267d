import type { SourcePhone } from './phones.ts';
import { DetailsReader, type ListPage, listPeople, type Reader, readPhones } from './reader.ts';
import type { SourceHttp } from './source-http.ts';
import { flagOf, linkOf, objectOf, personFrom, type SourcePerson } from './source-person.ts';

/** The most users a List User page gives (Pagination: "maximum value is 100"). */
const PAGE_SIZE = 100;

/** Contact methods that carry a phone number (Contact API: email, sms, voice; mobile is the app). */
const PHONE_METHODS: ReadonlySet<string> = new Set(['sms', 'voice']);

/**
 * Opsgenie's people: List User (`GET /v2/users?limit=100&offset=0`), following the next page's
 * link (`paging.next` in the body, or the `X-Paging-Next` header: Pagination gives both) until
 * there is none or a page is empty; each link's query is asked of the configured base. Then each
 * kept user's contact methods, four at a time, for their phone numbers: List Contacts
 * (`GET /v2/users/{id}/contacts`, Contact API), or, where that is not served, Get User with
 * `expand=contact` (User API: its `userContacts`). A user's `role.name` is its role;
 * `blocked: true` is blocked, `verified: false` only invited.
 */
export const readOpsgenie: Reader = async (http, options) => {
  const list = http.url('/v2/users');
  const readPage = async (url: URL): Promise<ListPage> => {
    const answer = await http.getAnswer(url, 'list users');
    const page = objectOf(answer.json);
    const data = page?.['data'];
    if (!page || !Array.isArray(data)) throw http.invalid('a List User page without a "data" list');
    const header = answer.headers['x-paging-next'];
    const next = data.length === 0 ? undefined : (linkOf(objectOf(page['paging'])?.['next']) ?? linkOf(Array.isArray(header) ? header[0] : header));
    return { entries: data, total: page['totalCount'], next: () => (next === undefined ? undefined : http.nextPage(next, 'paging.next', list)) };
  };
  const listed = await listPeople(http, options.hooks, http.url('/v2/users', { limit: String(PAGE_SIZE), offset: '0' }), readPage, personOf);
  return { ...listed, people: await readPhones(listed.people, options, () => true, contactReader(http)) };
};

function personOf(item: unknown, at: string): SourcePerson {
  return personFrom(item, at, (user, id) => {
    const role = objectOf(user['role'])?.['name'] ?? user['role'];
    return {
      id,
      email: user['username'],
      name: user['fullName'],
      role: typeof role === 'string' ? role : undefined,
      state: flagOf(user['blocked']) === true ? 'blocked' : flagOf(user['verified']) === false ? 'invited' : 'active',
      phones: [],
    };
  });
}

/** A contact method as either of Opsgenie's answers gives it. */
interface Contact {
  readonly method: unknown;
  readonly to: unknown;
  readonly enabled: unknown;
  readonly disabledReason: unknown;
  readonly applyOrder: unknown;
}

/**
 * Each person's phones among their contact methods: List Contacts (it gives `applyOrder`), or Get
 * User with `expand=contact` where List Contacts is not served (DetailsReader); undefined for a user gone.
 */
function contactReader(http: SourceHttp): DetailsReader<SourcePhone[]> {
  // List Contacts: `{data: [{method, to, status: {enabled, disabledReason}, applyOrder}]}`.
  const listed = async (id: string): Promise<SourcePhone[] | undefined> => {
    const answer = await http.getJsonUnlessNotFound(http.url(`/v2/users/${encodeURIComponent(id)}/contacts`), 'list contacts');
    if (answer === undefined) return undefined;
    const data = objectOf(answer.json)?.['data'];
    if (!Array.isArray(data)) throw http.invalid('a List Contacts answer without a "data" list');
    return phonesOf(
      data.flatMap((item): Contact[] => {
        const contact = objectOf(item);
        if (!contact) return [];
        const status = objectOf(contact['status']);
        return [
          {
            method: contact['method'],
            to: contact['to'],
            enabled: status?.['enabled'],
            disabledReason: status?.['disabledReason'],
            applyOrder: contact['applyOrder'],
          },
        ];
      }),
    );
  };
  // Get User: `{data: {..., userContacts: [{contactMethod, to, enabled, disabledReason}]}}`.
  const expanded = async (id: string): Promise<SourcePhone[] | undefined> => {
    const answer = await http.getJsonUnlessNotFound(http.url(`/v2/users/${encodeURIComponent(id)}`, { expand: 'contact' }), 'get user');
    if (answer === undefined) return undefined;
    const user = objectOf(objectOf(answer.json)?.['data']);
    if (!user) throw http.invalid('a Get User answer without a "data" user');
    const contacts = user['userContacts'];
    if (!Array.isArray(contacts)) return [];
    return phonesOf(
      contacts.flatMap((item): Contact[] => {
        const contact = objectOf(item);
        if (!contact) return [];
        return [
          {
            method: contact['contactMethod'] ?? contact['method'],
            to: contact['to'],
            enabled: contact['enabled'],
            disabledReason: contact['disabledReason'],
            applyOrder: undefined,
          },
        ];
      }),
    );
  };
  return new DetailsReader(listed, expanded);
}

/** A whole number, given as one or as its digits. */
const wholeOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value) : undefined;

/** The phone numbers among contact methods (sms, voice; any letter case), by `applyOrder`, those without one last, the list's order among equals. */
function phonesOf(contacts: readonly Contact[]): SourcePhone[] {
  return contacts
    .map((contact, at) => ({ contact, at, method: typeof contact.method === 'string' ? contact.method.trim().toLowerCase() : '' }))
    .filter(({ contact, method }) => PHONE_METHODS.has(method) && typeof contact.to === 'string')
    .sort((a, b) => {
      const [x, y] = [wholeOf(a.contact.applyOrder) ?? Number.POSITIVE_INFINITY, wholeOf(b.contact.applyOrder) ?? Number.POSITIVE_INFINITY];
      return x === y ? a.at - b.at : x < y ? -1 : 1;
    })
    .map(({ contact, method }) => {
      const usable = flagOf(contact.enabled) !== false;
      const reason = typeof contact.disabledReason === 'string' ? contact.disabledReason.trim().slice(0, 60) : '';
      return { raw: internationalOf(contact.to as string), method, usable, why: usable ? undefined : `disabled${reason ? `: ${reason}` : ''}` };
    });
}

/**
 * Opsgenie writes a number as its country calling code, a dash, and the number (`1-4155550123`,
 * the Contacts API's samples): as `+1 4155550123`. Any other form is passed on as it came.
 */
const internationalOf = (to: string): string => to.trim().replace(/^(\d{1,3})-(?=\d)/, '+$1 ');
