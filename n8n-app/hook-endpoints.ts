import type { HookEndpoints } from '../surfaces/hook-endpoints.ts';

/** The service's hook endpoints for n8n: the ones a hook trigger of this app subscribes and unsubscribes with. */
export const n8nHookEndpoints = { subscribe: 'subscribeN8n', unsubscribe: 'unsubscribeN8n' } as const satisfies HookEndpoints;
