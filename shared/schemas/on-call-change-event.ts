import * as z from 'zod/mini';
import { onCallUser } from './on-call-user.ts';
import { idString } from './primitives.ts';

/**
 * What a hook receives when a team's on-call people change (assumption `hook-payload`).
 * Consumers parse it with `safeParse` and pass on a payload that does not fit as it came:
 * an event is never dropped because its shape surprised us.
 */
export const onCallChangeEvent = z.looseObject({
  id: idString,
  type: z.string(),
  occurred_at: z.string(),
  team: z.looseObject({ id: idString, name: z.string() }),
  previous: z.array(onCallUser),
  current: z.array(onCallUser),
});
export type OnCallChangeEvent = z.output<typeof onCallChangeEvent>;
export const ON_CALL_CHANGED = 'oncall.changed';
export const EVENT_ID_HEADER = 'x-pagerly-event-id';
