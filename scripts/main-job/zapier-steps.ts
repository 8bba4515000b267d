import { demoKeys } from '../../sandbox/index.ts';
import { EVENT_ID_HEADER } from '../../shared/schemas/on-call-change-event.ts';
import type { HookReceiver } from './hook-receiver.ts';
import { call, needs, type Step } from './step.ts';
import type { ZapierRuntime } from './zapier-runtime.ts';

const user = { apiKey: demoKeys.acmeUser };
const admin = { apiKey: demoKeys.acmeAdmin };
const EMAIL = 'zapier.new.hire@acme.example';

/** Every operation of the built Zapier app, in the order a Zap builder meets them. */
export function zapierSteps(zapier: ZapierRuntime, receiver: HookReceiver) {
  const state: { subscription?: { id: string }; incidentId?: string } = {};
  const run = (method: string, authData: object, inputData: object = {}, extra: object = {}) => zapier.run(method, { authData, inputData, ...extra });
  const step = (operation: string, calls: string, body: () => Promise<string>): Step => ({ platform: 'Zapier', operation, calls, run: body });

  const before: Step[] = [
    step('auth test + label', call('checkApiKey'), async () => {
      const check = await run('authentication.test', user);
      return `connection "${await run('authentication.connectionLabel', user, check)}"`;
    }),
    step('team (dropdown)', call('listTeams'), async () => {
      const teams = (await run('triggers.team.operation.perform', user)) as { name: string }[];
      return `${teams.length} choices: ${teams.map((t) => t.name).join(', ')}`;
    }),
    step('on_call_changed subscribe', call('subscribeZapierHook'), async () => {
      state.subscription = await run(
        'triggers.on_call_changed.operation.performSubscribe',
        user,
        { teamname: 'Platform' },
        { targetUrl: receiver.url('/zapier/hook') },
      );
      return `hook ${state.subscription!.id} for Platform`;
    }),
    step('on_call_changed sample', call('listTeams', 'listOnCallUsers'), async () => {
      const [item] = (await run('triggers.on_call_changed.operation.performList', user, { teamname: 'Platform' })) as Record<string, unknown>[];
      return `on call now: ${item!.current_names}`;
    }),
    step('create_incident', call('createOrUpdateIncident'), async () => {
      const incident = await run('creates.create_incident.operation.perform', user, { title: 'Deploy 4512 failed', severity: 'P2', teamname: 'Platform' });
      state.incidentId = incident.id;
      return `${incident.id} "${incident.title}" (${incident.severity}, ${incident.status})`;
    }),
    step('update_incident (resolve)', call('createOrUpdateIncident'), async () => {
      const incident = await run('creates.update_incident.operation.perform', user, {
        id: needs(state.incidentId, 'create_incident'),
        title: 'Deploy 4512 failed',
        status: 'resolved',
      });
      return `${incident.id} ${incident.status}`;
    }),
    step('create_directory_entry', call('upsertDirectoryEntry'), async () => {
      const entry = await run('creates.create_directory_entry.operation.perform', admin, { email: EMAIL, name: 'Zapier New Hire', phone: '+1 (415) 555-0142' });
      return `${entry.email}: ${entry.name}, ${entry.phone}, ${entry.role}`;
    }),
    step(
      'update_directory_phone',
      call('updateDirectoryPhone'),
      async () => `phone ${(await run('creates.update_directory_phone.operation.perform', user, { email: EMAIL, phone: '+44 20 7946 0142' })).phone}`,
    ),
    step(
      'change_directory_role',
      call('changeDirectoryRole'),
      async () => `role ${(await run('creates.change_directory_role.operation.perform', admin, { email: EMAIL, role: 'admin' })).role}`,
    ),
    step('find_directory_entry', call('getDirectoryEntry'), async () => {
      const found = (await run('searches.find_directory_entry.operation.perform', user, { email: EMAIL })) as { name: string; role: string }[];
      return `${found.length} found: ${found.map((e) => `${e.name} (${e.role})`).join(', ')}`;
    }),
    step('remove_directory_entry', call('removeDirectoryEntry'), async () => {
      const removed = await run('creates.remove_directory_entry.operation.perform', admin, { email: EMAIL });
      const after = (await run('searches.find_directory_entry.operation.perform', user, { email: EMAIL })) as unknown[];
      return `removed ${removed.email}; a search now finds ${after.length}`;
    }),
    step('find_on_call_users', call('listOnCallUsers'), async () => {
      const found = (await run('searches.find_on_call_users.operation.perform', user, { teamname: 'Payments' })) as Record<string, unknown>[];
      return `Payments: ${found[0]?.on_call_names ?? 'nobody'}`;
    }),
  ];

  const after: Step[] = [
    step('on_call_changed (live)', 'hook delivery → perform', async () => {
      const delivery = needs(
        receiver.deliveries.find((d) => d.path.startsWith('/zapier/')),
        'a delivery to the Zapier hook',
      );
      const header = delivery.headers[EVENT_ID_HEADER];
      const [item] = (await run(
        'triggers.on_call_changed.operation.perform',
        user,
        { teamname: 'Platform' },
        {
          cleanedRequest: JSON.parse(delivery.text),
          rawRequest: { content: delivery.text, headers: { 'Http-X-Pagerly-Event-Id': String(header) } },
        },
      )) as Record<string, unknown>[];
      return `${item!.id}: ${(item!.team as { name?: string } | undefined)?.name} ${item!.previous_names} → ${item!.current_names} at ${item!.occurred_at}`;
    }),
    step('on_call_changed unsubscribe', call('unsubscribeZapierHook'), async () => {
      const removed = await run('triggers.on_call_changed.operation.performUnsubscribe', user, {}, { subscribeData: needs(state.subscription, 'subscribe') });
      return `hook ${removed.id} removed`;
    }),
  ];
  return { before, after };
}
