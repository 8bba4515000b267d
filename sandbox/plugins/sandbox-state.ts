import type { SandboxClock } from '../clock.ts';
import type { FaultList } from '../faults/fault-list.ts';
import type { OnCallWatcher } from '../delivery/on-call-watcher.ts';
import fp from 'fastify-plugin';
import type { WorldState } from '../world/world.ts';
import '../http/fastify-types.ts';

export interface SandboxState {
  world: WorldState;
  clock: SandboxClock;
  watcher: OnCallWatcher;
  faults: FaultList;
}

/** The world and its machinery as decorators, so every route plugin reaches the same state. */
export const sandboxState = fp<SandboxState>(
  async (app, state) => {
    app.decorate('world', state.world);
    app.decorate('sandboxClock', state.clock);
    app.decorate('onCallWatcher', state.watcher);
    app.decorate('faultList', state.faults);
  },
  { name: 'sandbox-state' },
);
