import type { HookEndpoints } from '../surfaces/hook-endpoints.ts';

/** The service's hook endpoints for Make: the ones a hook trigger of this app subscribes and unsubscribes with. */
export const makeHookEndpoints = { subscribe: 'subscribeMakeHook', unsubscribe: 'unsubscribeMakeHook' } as const satisfies HookEndpoints;
