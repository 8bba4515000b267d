import type { MakeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { demoKeys } from '../../sandbox/index.ts';
import type { HookReceiver } from './hook-receiver.ts';
import { call, needs, type Step } from './step.ts';

const user = { apiKey: demoKeys.acmeUser };
const admin = { apiKey: demoKeys.acmeAdmin };
const EMAIL = 'make.new.hire@acme.example';

// biome-ignore lint/suspicious/noExplicitAny: each step reads the fields of its own module's bundle
type Bundle = Record<string, any>;

/** Every component of the built Make app (dist/make), run as Make runs it. */
export function makeSteps(make: MakeRunner, receiver: HookReceiver) {
  const state: { webhook?: Record<string, unknown>; incidentId?: string } = {};
  const step = (operation: string, calls: string, body: () => Promise<string>): Step => ({ platform: 'Make', operation, calls, run: body });
  const module = async (id: string, connection: Record<string, unknown>, parameters: Record<string, unknown>) =>
    (await make.module(id, { connection, parameters })) as Bundle[];

  const before: Step[] = [
    step('connection pagerly', call('checkApiKey'), async () => `connection "${((await make.testConnection(user)).label as { value: string }).value}"`),
    step('listTeams (RPC)', call('listTeams'), async () => {
      const options = (await make.rpc('listTeams', { connection: user })) as { label: string }[];
      return `${options.length} options: ${options.map((o) => o.label).join(', ')}`;
    }),
    step('onCallChanges attach', call('subscribeMakeHook'), async () => {
      state.webhook = await make.attach('onCallChanges', {
        connection: user,
        parameters: { teamname: 'Platform' },
        webhook: { id: 'main-job', url: receiver.url('/make/hook') },
      });
      return `hook ${String(state.webhook.externalHookId)} for Platform`;
    }),
    step('createIncident', call('createOrUpdateIncident'), async () => {
      const [incident] = await module('createIncident', user, {
        title: 'Backup job failed',
        severity: 'P3',
        description: 'Nightly backup of db-2 exited with 1.',
      });
      state.incidentId = incident!.id;
      return `${incident!.id} "${incident!.title}" (${incident!.severity}, ${incident!.status})`;
    }),
    step('updateIncident (acknowledge)', call('createOrUpdateIncident'), async () => {
      const [incident] = await module('updateIncident', user, {
        id: needs(state.incidentId, 'createIncident'),
        title: 'Backup job failed',
        status: 'acknowledged',
      });
      return `${incident!.id} ${incident!.status}`;
    }),
    step('createDirectoryEntry', call('upsertDirectoryEntry'), async () => {
      const [entry] = await module('createDirectoryEntry', admin, { email: EMAIL, name: 'Make New Hire', phone: '+1 415-555-0143' });
      return `${entry!.email}: ${entry!.name}, ${entry!.phone}, ${entry!.role}`;
    }),
    step(
      'updateDirectoryPhone',
      call('updateDirectoryPhone'),
      async () => `phone ${(await module('updateDirectoryPhone', user, { email: EMAIL, phone: '+31 20 555 0143' }))[0]!.phone}`,
    ),
    step(
      'changeDirectoryRole',
      call('changeDirectoryRole'),
      async () => `role ${(await module('changeDirectoryRole', admin, { email: EMAIL, role: 'admin' }))[0]!.role}`,
    ),
    step('getDirectoryEntry', call('getDirectoryEntry'), async () => {
      const found = await module('getDirectoryEntry', user, { email: EMAIL });
      return `${found.length} bundle: ${found.map((e) => `${e.name} (${e.role})`).join(', ')}`;
    }),
    step('removeDirectoryEntry', call('removeDirectoryEntry'), async () => {
      const [removed] = await module('removeDirectoryEntry', admin, { email: EMAIL });
      // Make takes a 404 for an error, never for "nothing found": the get now ends in [404].
      const gone = await module('getDirectoryEntry', user, { email: EMAIL }).then(
        () => 'no error',
        (error: Error) => error.message,
      );
      return `removed ${removed!.email}; a get now ends in "${gone}"`;
    }),
    step('listOnCallUsers', call('listOnCallUsers'), async () => {
      const bundles = await module('listOnCallUsers', user, { teamname: 'Payments' });
      return `${bundles.length} bundles: ${bundles.map((b) => b.name).join(', ')}`;
    }),
    step('makeApiCall', 'GET /o/oncalluser (any path)', async () => {
      const [answer] = await module('makeApiCall', user, { url: '/o/oncalluser', method: 'GET', qs: [{ key: 'email', value: 'katherine@acme.example' }] });
      return `HTTP ${answer!.statusCode}: ${answer!.body.name}`;
    }),
  ];

  const after: Step[] = [
    step('watchOnCallChanges (live)', 'hook delivery → webhook', async () => {
      const delivery = needs(
        receiver.deliveries.find((d) => d.path.startsWith('/make/')),
        'a delivery to the Make webhook',
      );
      const [bundle] = make.receive('onCallChanges', { parameters: { teamname: 'Platform' }, body: JSON.parse(delivery.text) }) as Bundle[];
      return `${bundle!.id}: ${bundle!.team?.name} ${bundle!.previous_names} → ${bundle!.current_names} at ${bundle!.occurred_at}`;
    }),
    step('onCallChanges detach', call('unsubscribeMakeHook'), async () => {
      await make.detach('onCallChanges', { connection: user, parameters: {}, webhook: needs(state.webhook, 'attach') });
      return `hook ${String(state.webhook!.externalHookId)} removed`;
    }),
  ];
  return { before, after };
}
