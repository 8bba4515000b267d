import type { HookEndpoints } from '../surfaces/hook-endpoints.ts';

/** The service's hook endpoints for Zapier: the ones a hook trigger of this app subscribes and unsubscribes with. */
export const zapierHookEndpoints = { subscribe: 'subscribeZapierHook', unsubscribe: 'unsubscribeZapierHook' } as const satisfies HookEndpoints;
