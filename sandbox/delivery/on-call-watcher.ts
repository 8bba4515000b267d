import { ON_CALL_CHANGED, type OnCallChangeEvent } from '../../shared/schemas/on-call-change-event.ts';
import type { OnCallUser } from '../../shared/schemas/on-call-user.ts';
import type { SandboxClock } from '../clock.ts';
import { onCallUserView } from '../world/views.ts';
import type { Team } from '../world/records.ts';
import type { WorldState } from '../world/world.ts';
import type { DeliveryQueue } from './delivery-queue.ts';

/** The hook payload (assumption `hook-payload`), as the shared schema types it. */
export type OnCallChangedEvent = OnCallChangeEvent;

/**
 * Notices when a team's on-call people change and hands one event per changed team to the
 * delivery queue. Each team's last set is remembered from when the watcher starts, so the
 * world as seeded is the baseline, not a change.
 */
export class OnCallWatcher {
  private readonly lastSeen = new Map<string, readonly OnCallUser[]>();
  private readonly world: WorldState;
  private readonly clock: SandboxClock;
  private readonly deliveries: DeliveryQueue;
  /** Told after a team's last known set changed, so a state file can keep it. */
  onChange: () => void = () => {};
  /** Told of each event raised, with how many subscriptions it went to (the console's live feed). */
  onEvent: (event: OnCallChangedEvent, subscriptions: number) => void = () => {};

  constructor(world: WorldState, clock: SandboxClock, deliveries: DeliveryQueue) {
    this.world = world;
    this.clock = clock;
    this.deliveries = deliveries;
    const now = clock.now();
    for (const team of world.teams.values()) this.lastSeen.set(team.id, this.onCall(team, now));
  }

  /** Compares every team with what it was last time; returns the events it raised. */
  check(): OnCallChangedEvent[] {
    const now = this.clock.now();
    const events: OnCallChangedEvent[] = [];
    for (const team of this.world.teams.values()) {
      const previous = this.lastSeen.get(team.id) ?? [];
      const current = this.onCall(team, now);
      if (samePeople(previous, current)) continue;
      this.lastSeen.set(team.id, current);
      const event: OnCallChangedEvent = {
        id: this.world.ids.next('evt'),
        type: ON_CALL_CHANGED,
        occurred_at: now.toISOString(),
        team: { id: team.id, name: team.name },
        previous: [...previous],
        current,
      };
      events.push(event);
      const subscriptions = this.world.subscriptionsFor(team);
      this.deliveries.enqueue(event, subscriptions);
      this.onEvent(event, subscriptions.length);
    }
    if (events.length > 0) this.onChange();
    return events;
  }

  /** Each team's last known on-call people, by team id. */
  snapshot(): Record<string, readonly OnCallUser[]> {
    return Object.fromEntries(this.lastSeen);
  }

  /**
   * Takes the sets known before a restart as the baseline, so the next check raises exactly
   * the changes since then: none invented, none missed. Teams not given keep today's set.
   */
  restore(lastSeen: Readonly<Record<string, readonly OnCallUser[]>>): void {
    for (const [teamId, people] of Object.entries(lastSeen)) {
      if (this.world.teams.has(teamId)) this.lastSeen.set(teamId, people);
    }
  }

  private onCall(team: Team, at: Date): OnCallUser[] {
    return this.world.onCallIn(team, at).map(onCallUserView);
  }
}

/** The same people, in whatever order: a reshuffle of layers is not a handover. */
function samePeople(a: readonly OnCallUser[], b: readonly OnCallUser[]): boolean {
  const ids = new Set(a.map((user) => user.id));
  return a.length === b.length && b.every((user) => ids.has(user.id));
}
