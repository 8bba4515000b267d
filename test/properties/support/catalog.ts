import { endpoints, type EndpointKey } from '../../../shared/catalog/endpoints.ts';

/** The input fields of an endpoint, from its schema (zod/mini objects keep theirs in `shape`). */
export function fieldsOf(key: EndpointKey): string[] {
  return Object.keys((endpoints[key].input as unknown as { shape: Record<string, unknown> }).shape);
}

/** `{name}` segments of an endpoint's path. */
export function pathParamsOf(key: EndpointKey): string[] {
  return [...endpoints[key].path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

export const endpointKeys = Object.keys(endpoints) as EndpointKey[];

/** A JavaScript object (null-prototype ones too), not an array. */
export const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `.` and `..` as path segments: URL parsers resolve them, whatever their encoding. */
export const isDotSegment = (value: unknown) => typeof value === 'string' && /^(?:\.|%2e){1,2}$/i.test(value.trim());

/** Text with a lone surrogate half (not well-formed UTF-16): encodeURIComponent throws on it. */
export const isIllFormed = (value: unknown) =>
  typeof value === 'string' && /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);

/** One input each endpoint accepts (for the sandbox's demo organization where it matters). */
export const goodInput: { readonly [K in EndpointKey]: Record<string, string> } = {
  checkApiKey: {},
  createOrUpdateIncident: { title: 'Deploy failed', severity: 'P2' },
  listOnCallUsers: { teamname: 'Payments' },
  listTeams: {},
  // The owner: the only entry no random remove or role change earlier in a run can take away.
  getDirectoryEntry: { email: 'ada@acme.example' },
  upsertDirectoryEntry: { email: 'new.hire@acme.example', name: 'New Hire', phone: '+1 415 555 0199' },
  updateDirectoryPhone: { email: 'katherine@acme.example', phone: '+44 20 7946 0958' },
  changeDirectoryRole: { email: 'katherine@acme.example', role: 'admin' },
  removeDirectoryEntry: { email: 'hedy@acme.example' },
  subscribeZapierHook: { url: 'https://hooks.example.com/zapier/1' },
  subscribeMakeHook: { url: 'https://hooks.example.com/make/1', teamname: 'Platform' },
  unsubscribeZapierHook: { id: 'sub_0001' },
  unsubscribeMakeHook: { id: 'sub_0002' },
};
