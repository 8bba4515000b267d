import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import type { MakeRunner } from '../../make-app/interpreter/runner/runner.ts';

/** The Make app's components as the runner calls them, with the key of a connection. */
export interface MakeComponent {
  /** e.g. `module createIncident`, `webhook onCallChanges attach`. */
  name: string;
  /** Where a fault is injected: the catalog path of the request it makes (none: it makes no request). */
  endpoint?: EndpointKey;
  /** Requests it sends before the faulty one, each with the key (an update reads first). Default 0. */
  readsFirst?: number;
  run(runner: MakeRunner, apiKey: string): Promise<unknown>;
}

const connection = (apiKey: string) => ({ apiKey });

/** Every component of the generated app, with inputs fit for fault runs (a success run makes its own). */
export const makeComponents: readonly MakeComponent[] = [
  { name: 'connection pagerly', endpoint: 'checkApiKey', run: (r, key) => r.testConnection({ apiKey: key }) },
  { name: 'rpc listTeams', endpoint: 'listTeams', run: (r, key) => r.rpc('listTeams', { connection: connection(key) }) },
  { name: 'module watchOnCallChanges', run: (r, key) => r.module('watchOnCallChanges', { connection: connection(key), parameters: { teamname: 'Platform' } }) },
  {
    name: 'module createIncident',
    endpoint: 'createOrUpdateIncident',
    run: (r, key) => r.module('createIncident', { connection: connection(key), parameters: { title: 'Disk full', severity: 'P2' } }),
  },
  {
    name: 'module updateIncident',
    endpoint: 'createOrUpdateIncident',
    run: (r, key) => r.module('updateIncident', { connection: connection(key), parameters: { id: 'inc_0001', title: 'Disk full', status: 'resolved' } }),
  },
  {
    name: 'module createDirectoryEntry',
    endpoint: 'upsertDirectoryEntry',
    run: (r, key) => r.module('createDirectoryEntry', { connection: connection(key), parameters: { email: 'm@acme.example', name: 'M' } }),
  },
  {
    name: 'module updateDirectoryEntry',
    endpoint: 'upsertDirectoryEntry',
    readsFirst: 1,
    // An existing entry (the module reads it first), updated to what it already is.
    run: (r, key) =>
      r.module('updateDirectoryEntry', { connection: connection(key), parameters: { email: 'katherine@acme.example', name: 'Katherine Johnson' } }),
  },
  {
    name: 'module updateDirectoryPhone',
    endpoint: 'updateDirectoryPhone',
    run: (r, key) => r.module('updateDirectoryPhone', { connection: connection(key), parameters: { email: 'katherine@acme.example', phone: '+14155550103' } }),
  },
  {
    name: 'module changeDirectoryRole',
    endpoint: 'changeDirectoryRole',
    run: (r, key) => r.module('changeDirectoryRole', { connection: connection(key), parameters: { email: 'katherine@acme.example', role: 'user' } }),
  },
  {
    name: 'module removeDirectoryEntry',
    endpoint: 'removeDirectoryEntry',
    run: (r, key) => r.module('removeDirectoryEntry', { connection: connection(key), parameters: { email: 'nobody@acme.example' } }),
  },
  {
    name: 'module listOnCallUsers',
    endpoint: 'listOnCallUsers',
    run: (r, key) => r.module('listOnCallUsers', { connection: connection(key), parameters: { teamname: 'Payments' } }),
  },
  {
    name: 'module getDirectoryEntry',
    endpoint: 'getDirectoryEntry',
    run: (r, key) => r.module('getDirectoryEntry', { connection: connection(key), parameters: { email: 'katherine@acme.example' } }),
  },
  {
    name: 'module makeApiCall',
    endpoint: 'listTeams',
    run: (r, key) => r.module('makeApiCall', { connection: connection(key), parameters: { url: '/pagerly/o/zapier/allteams', method: 'GET' } }),
  },
  {
    name: 'webhook onCallChanges attach',
    endpoint: 'subscribeMakeHook',
    run: (r, key) =>
      r.attach('onCallChanges', {
        connection: connection(key),
        parameters: { teamname: 'Platform' },
        webhook: { id: 'make-hook-1', url: 'https://hook.make.example/secret' },
      }),
  },
  {
    name: 'webhook onCallChanges receive',
    run: async (r) =>
      r.receive('onCallChanges', {
        parameters: {},
        body: { id: 'evt_x', type: 'oncall.changed', team: { id: 't', name: 'Platform' }, previous: [], current: [] },
      }),
  },
  {
    name: 'webhook onCallChanges detach',
    endpoint: 'unsubscribeMakeHook',
    run: (r, key) => r.detach('onCallChanges', { connection: connection(key), parameters: {}, webhook: { externalHookId: 'sub_9999' } }),
  },
];

/** A fault for a component's request: method and catalog path of its endpoint. */
export const whereOf = (key: EndpointKey) => ({ method: endpoints[key].method, path: endpoints[key].path });
