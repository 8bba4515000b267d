import type { EndpointKey } from '../../shared/catalog/endpoints.ts';

/**
 * What `npm run record` records and what the replay tests replay: one list, so the
 * recordings and the assertions cannot drift apart. Inputs come from a fixture, so the
 * same scenarios can be recorded from the sandbox or from the real service.
 */
export interface Fixture {
  team: string;
  /** A team with nobody on call. */
  emptyTeam: string;
  /** An existing directory entry. */
  existingEmail: string;
  /** A directory entry the lifecycle scenario creates and removes again. */
  newEmail: string;
  hookUrl: string;
}

/** Whose key a scenario uses: the org admin's, a non-admin's, a wrong one, or one of an org without teams. */
export type Identity = 'admin' | 'user' | 'invalid' | 'emptyOrg';

export type Outcome = 'ok' | 'AuthenticationError' | 'PermissionError' | 'NotFoundError' | 'RateLimitError' | 'ServerError' | 'InvalidResponseError';

export interface Step {
  endpoint: EndpointKey;
  /** The input, or a function of the earlier steps' outputs (to update what an earlier step created). */
  input: object | ((earlier: readonly unknown[]) => object);
  expect: Outcome;
}

export interface Fault {
  path: string;
  status: number;
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Scenario {
  name: string;
  as: Identity;
  /** Faults and other orgs exist only in the sandbox; a live recording keeps the sandbox's file. */
  sandboxOnly?: boolean;
  /** Changes the service's data: recorded live only with PAGERLY_RECORD_WRITES=1. */
  writes?: boolean;
  fault?: Fault;
  steps(fixture: Fixture): Step[];
}

const idOf = (earlier: readonly unknown[], index: number): string => String((earlier[index] as { id?: unknown }).id);
/** The name of the index-th team the first step listed (the API's `{id, name}`, or a dropdown's `{label, value}` on Make). */
const teamAt = (earlier: readonly unknown[], index: number): string => {
  const team = (earlier[0] as { name?: unknown; value?: unknown }[])[index];
  return String(team?.name ?? team?.value);
};

export const scenarios: Scenario[] = [
  { name: 'check-api-key', as: 'admin', steps: () => [{ endpoint: 'checkApiKey', input: {}, expect: 'ok' }] },
  { name: 'check-api-key-invalid', as: 'invalid', steps: () => [{ endpoint: 'checkApiKey', input: {}, expect: 'AuthenticationError' }] },
  { name: 'list-teams', as: 'admin', steps: () => [{ endpoint: 'listTeams', input: {}, expect: 'ok' }] },
  { name: 'list-teams-empty', as: 'emptyOrg', sandboxOnly: true, steps: () => [{ endpoint: 'listTeams', input: {}, expect: 'ok' }] },
  { name: 'list-teams-invalid-key', as: 'invalid', steps: () => [{ endpoint: 'listTeams', input: {}, expect: 'AuthenticationError' }] },
  { name: 'on-call-team', as: 'user', steps: (f) => [{ endpoint: 'listOnCallUsers', input: { teamname: f.team }, expect: 'ok' }] },
  { name: 'on-call-nobody', as: 'user', steps: (f) => [{ endpoint: 'listOnCallUsers', input: { teamname: f.emptyTeam }, expect: 'ok' }] },
  {
    // Everyone on call from documented calls: the team list, then each of the sandbox's three teams by name.
    name: 'on-call-every-team', as: 'user', sandboxOnly: true,
    steps: () => [
      { endpoint: 'listTeams', input: {}, expect: 'ok' },
      ...[0, 1, 2].map((index): Step => ({ endpoint: 'listOnCallUsers', input: (e) => ({ teamname: teamAt(e, index) }), expect: 'ok' })),
    ],
  },
  { name: 'on-call-unknown-team', as: 'user', steps: () => [{ endpoint: 'listOnCallUsers', input: { teamname: 'No Such Team 0451' }, expect: 'NotFoundError' }] },
  {
    name: 'incident-create-update-resolve', as: 'user', writes: true,
    steps: (f) => [
      { endpoint: 'createOrUpdateIncident', input: { title: 'Checkout latency above 2 s', severity: 'P2', teamname: f.team }, expect: 'ok' },
      { endpoint: 'createOrUpdateIncident', input: (e) => ({ id: idOf(e, 0), title: 'Checkout latency above 2 s', severity: 'P1' }), expect: 'ok' },
      { endpoint: 'createOrUpdateIncident', input: (e) => ({ id: idOf(e, 0), title: 'Checkout latency above 2 s', status: 'resolved' }), expect: 'ok' },
    ],
  },
  { name: 'incident-update-unknown', as: 'user', steps: () => [{ endpoint: 'createOrUpdateIncident', input: { id: 'inc_does_not_exist', title: 'x' }, expect: 'NotFoundError' }] },
  { name: 'directory-get', as: 'user', steps: (f) => [{ endpoint: 'getDirectoryEntry', input: { email: f.existingEmail }, expect: 'ok' }] },
  { name: 'directory-get-missing', as: 'user', steps: () => [{ endpoint: 'getDirectoryEntry', input: { email: 'nobody.0451@example.com' }, expect: 'NotFoundError' }] },
  {
    name: 'directory-lifecycle', as: 'admin', writes: true,
    steps: (f) => [
      { endpoint: 'upsertDirectoryEntry', input: { email: f.newEmail, name: 'New Hire', phone: '+1 415 555 0199' }, expect: 'ok' },
      { endpoint: 'updateDirectoryPhone', input: { email: f.newEmail, phone: '+14155550198' }, expect: 'ok' },
      { endpoint: 'changeDirectoryRole', input: { email: f.newEmail, role: 'admin' }, expect: 'ok' },
      { endpoint: 'upsertDirectoryEntry', input: { email: f.newEmail, name: 'New Hire (Platform)' }, expect: 'ok' },
      { endpoint: 'removeDirectoryEntry', input: { email: f.newEmail }, expect: 'ok' },
      { endpoint: 'getDirectoryEntry', input: { email: f.newEmail }, expect: 'NotFoundError' },
      { endpoint: 'removeDirectoryEntry', input: { email: f.newEmail }, expect: 'NotFoundError' },
    ],
  },
  {
    name: 'directory-admin-refusals', as: 'user',
    steps: (f) => [
      { endpoint: 'upsertDirectoryEntry', input: { email: f.newEmail, name: 'New Hire' }, expect: 'PermissionError' },
      { endpoint: 'changeDirectoryRole', input: { email: f.existingEmail, role: 'admin' }, expect: 'PermissionError' },
      { endpoint: 'removeDirectoryEntry', input: { email: f.existingEmail }, expect: 'PermissionError' },
    ],
  },
  {
    name: 'zapier-hook', as: 'user', writes: true,
    steps: (f) => [
      { endpoint: 'subscribeZapierHook', input: { url: f.hookUrl, teamname: f.team }, expect: 'ok' },
      { endpoint: 'unsubscribeZapierHook', input: (e) => ({ id: idOf(e, 0) }), expect: 'ok' },
      { endpoint: 'unsubscribeZapierHook', input: (e) => ({ id: idOf(e, 0) }), expect: 'NotFoundError' },
    ],
  },
  {
    name: 'make-hook', as: 'user', writes: true,
    steps: (f) => [
      { endpoint: 'subscribeMakeHook', input: { url: f.hookUrl }, expect: 'ok' },
      { endpoint: 'unsubscribeMakeHook', input: (e) => ({ id: idOf(e, 0) }), expect: 'ok' },
    ],
  },
  {
    name: 'rate-limited', as: 'user', sandboxOnly: true,
    fault: { path: '/o/zapier/allteams', status: 429, body: '[{"Error":"Rate limit exceeded; retry after 30 seconds"}]', headers: { 'retry-after': '30' } },
    steps: () => [{ endpoint: 'listTeams', input: {}, expect: 'RateLimitError' }],
  },
  {
    name: 'server-error', as: 'user', sandboxOnly: true,
    fault: { path: '/o/incident', status: 500, body: '[{"Error":"Internal error"}]' },
    steps: () => [{ endpoint: 'createOrUpdateIncident', input: { title: 'Disk full on db-1' }, expect: 'ServerError' }],
  },
  {
    name: 'html-instead-of-json', as: 'user', sandboxOnly: true,
    fault: { path: '/o/currentusers', status: 200, body: '<!doctype html><html><body><h1>Maintenance</h1></body></html>', contentType: 'text/html; charset=utf-8' },
    steps: (f) => [{ endpoint: 'listOnCallUsers', input: { teamname: f.team }, expect: 'InvalidResponseError' }],
  },
  {
    name: 'truncated-json', as: 'user', sandboxOnly: true,
    fault: { path: '/o/zapier/allteams', status: 200, body: '[{"id":"team_platform","name":"Platf' },
    steps: () => [{ endpoint: 'listTeams', input: {}, expect: 'InvalidResponseError' }],
  },
];
