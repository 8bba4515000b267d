import type { Endpoint } from '../../shared/catalog/endpoint.ts';
import type { SandboxClock } from '../clock.ts';
import type { Fault, FaultList } from '../faults/fault-list.ts';
import type { OnCallWatcher } from '../delivery/on-call-watcher.ts';
import type { Caller, WorldState } from '../world/world.ts';

// The sandbox's decorators and route config, as Fastify's types see them.
declare module 'fastify' {
  interface FastifyInstance {
    world: WorldState;
    sandboxClock: SandboxClock;
    onCallWatcher: OnCallWatcher;
    faultList: FaultList;
    /** Every route of the app, one entry per method, in the order they were registered. */
    routeList: readonly { readonly method: string; readonly url: string }[];
  }
  interface FastifyRequest {
    /** Set by the authentication plugin on service routes; null elsewhere. */
    caller: Caller | null;
    /** The fault that answered this service request instead of the sandbox's model (fault-injection.ts); null elsewhere. */
    injectedFault: Fault | null;
  }
  interface FastifyContextConfig {
    /** The catalog endpoint a service route serves. */
    endpoint?: Endpoint;
  }
}
