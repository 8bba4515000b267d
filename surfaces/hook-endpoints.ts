import type { EndpointKey } from '../shared/catalog/endpoints.ts';

/**
 * The service gives each platform its own pair of hook endpoints (`/o/zapier/subscribe`,
 * `/o/make/subscribe`, ...), so which pair a hook trigger calls is the surface's to say.
 */
export interface HookEndpoints {
  readonly subscribe: EndpointKey;
  readonly unsubscribe: EndpointKey;
}
