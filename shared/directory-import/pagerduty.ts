import { InvalidResponseError } from '../errors.ts';
import type { SourcePhone } from './phones.ts';
import { DetailsReader, type ListPage, listPeople, type Reader, readPhones } from './reader.ts';
import type { SourceHttp } from './source-http.ts';
import { flagOf, objectOf, personFrom, type SourcePerson } from './source-person.ts';

/** Pagination: "cannot exceed 100" a page, and "the sum of the offset and limit parameters cannot exceed 10000". */
const PAGE_SIZE = 100;
const CLASSIC_PAGING_END = 10_000;

/** The contact methods that hold a phone number (PhoneContactMethod: "used for Voice or SMS"). */
const PHONE_TYPES: Readonly<Record<string, string>> = { phone_contact_method: 'voice', sms_contact_method: 'sms', whatsapp_contact_method: 'whatsapp' };

/**
 * A WhatsApp number (WhatsAppContactMethod: `country_code` and `address` as a phone's) is the
 * person's phone too, but not the one an on-call call or text goes to: taken after voice and SMS.
 */
const LAST_RESORT = 'whatsapp';

/**
 * PagerDuty's people: List users (`GET /users`) with `include[]=contact_methods` and
 * `total=true`, classic pagination: `offset` moves by the users a page gave until `more` is
 * false or a page is empty. A phone is `+<country_code><address>`; `enabled: false` or `blacklisted: true` makes it
 * not usable. A user whose contact methods came as references only is read again on its own
 * (`GET /users/{id}/contact_methods`, or `GET /users/{id}?include[]=contact_methods` where that
 * is not served). `invitation_sent: true` is only invited.
 */
export const readPagerDuty: Reader = async (http, options) => {
  const pageAt = (offset: number): URL => {
    const limit = Math.min(PAGE_SIZE, CLASSIC_PAGING_END - offset);
    if (limit <= 0) {
      throw new InvalidResponseError(
        `PagerDuty lists at most ${CLASSIC_PAGING_END} users by its classic pagination (its REST API documentation, Pagination), and this account has more. Nothing was written.`,
      );
    }
    return http.url('/users', { 'include[]': 'contact_methods', limit: String(limit), offset: String(offset), total: 'true' });
  };
  let offset = 0;
  const readPage = async (url: URL): Promise<ListPage> => {
    const page = objectOf(await http.getJson(url, 'list users'));
    const users = page?.['users'];
    if (!page || !Array.isArray(users)) throw http.invalid('a List users page without a "users" list');
    const more = flagOf(page['more']);
    offset += users.length;
    const after = offset;
    const next = (total: number | undefined) => {
      if (users.length === 0 && more === true) throw http.invalid('a page with no users said more were to come');
      // Without `more` (never so in the reference, but a proxy or a stand-in may drop it): the total when given, else the next page, which is empty at the end.
      const end = more === false || users.length === 0 || (more === undefined && total !== undefined && after >= total);
      return end ? undefined : pageAt(after);
    };
    return { entries: users, total: page['total'], next };
  };
  const listed = await listPeople(http, options.hooks, pageAt(0), readPage, personOf);
  // A user whose contact methods came as references only is read again on its own.
  return { ...listed, people: await readPhones(listed.people, options, (person) => person.phones === undefined, contactMethodsReader(http)) };
};

function personOf(item: unknown, at: string): SourcePerson {
  return personFrom(item, at, (user, id) => ({
    id,
    email: user['email'],
    name: user['name'],
    role: typeof user['role'] === 'string' ? user['role'] : undefined,
    state: flagOf(user['invitation_sent']) === true ? 'invited' : 'active',
    phones: phonesOf(user['contact_methods']),
  }));
}

/** The phones of a list of contact methods; undefined when they came as references (no address), to be read on their own. */
function phonesOf(methods: unknown): SourcePhone[] | undefined {
  if (!Array.isArray(methods)) return [];
  const objects = methods.map(objectOf).filter((method): method is Record<string, unknown> => method !== undefined);
  if (objects.some((method) => typeof method['type'] === 'string' && method['type'].endsWith('_reference'))) return undefined;
  const phones = objects.flatMap((method): SourcePhone[] => {
    const kind = typeof method['type'] === 'string' && Object.hasOwn(PHONE_TYPES, method['type']) ? PHONE_TYPES[method['type']]! : undefined;
    const code = method['country_code'];
    // An address of digits given as a JSON number is still its digits.
    const address = typeof method['address'] === 'number' && Number.isSafeInteger(method['address']) ? String(method['address']) : method['address'];
    if (!kind || typeof address !== 'string' || !(typeof code === 'number' || typeof code === 'string')) return [];
    const blacklisted = flagOf(method['blacklisted']) === true;
    const disabled = flagOf(method['enabled']) === false;
    const usable = !blacklisted && !disabled;
    // country_code is a number in the reference; given as text, a leading + is the same code.
    return [
      {
        raw: `+${String(code).trim().replace(/^\+/, '')} ${address.trim()}`,
        method: kind,
        usable,
        why: blacklisted ? 'blacklisted' : disabled ? 'disabled' : undefined,
      },
    ];
  });
  return [...phones.filter((phone) => phone.method !== LAST_RESORT), ...phones.filter((phone) => phone.method === LAST_RESORT)];
}

/**
 * A user's contact methods in full: List a user's contact methods, or Get a user with
 * `include[]=contact_methods` where that is not served (DetailsReader); undefined for a user gone.
 */
function contactMethodsReader(http: SourceHttp): DetailsReader<SourcePhone[]> {
  const listed = async (id: string): Promise<SourcePhone[] | undefined> => {
    const answer = await http.getJsonUnlessNotFound(http.url(`/users/${encodeURIComponent(id)}/contact_methods`), 'list contact methods');
    if (answer === undefined) return undefined;
    const methods = objectOf(answer.json)?.['contact_methods'];
    if (!Array.isArray(methods)) throw http.invalid('a List contact methods answer without a "contact_methods" list');
    return phonesOf(methods) ?? [];
  };
  const user = async (id: string): Promise<SourcePhone[] | undefined> => {
    const answer = await http.getJsonUnlessNotFound(http.url(`/users/${encodeURIComponent(id)}`, { 'include[]': 'contact_methods' }), 'get user');
    if (answer === undefined) return undefined;
    const found = objectOf(objectOf(answer.json)?.['user']);
    if (!found) throw http.invalid('a Get a user answer without a "user"');
    return phonesOf(found['contact_methods']) ?? [];
  };
  return new DetailsReader(listed, user);
}
