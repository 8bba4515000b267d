import { z } from 'zod';
import { idString, teamName } from './primitives.ts';

export const hookUrl = z
  .string()
  .trim()
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }));

/** `POST /o/{zapier,make}/subscribe` body (assumption `subscribe`). */
export const subscribeInput = z.object({ url: hookUrl, teamname: teamName.optional() });

/** `DELETE /o/{zapier,make}/subscribe/{id}` (assumption `unsubscribe`). */
export const unsubscribeInput = z.object({ id: z.string().trim().min(1, 'is required (the id the subscribe call returned)') });

export const subscription = z.looseObject({
  id: idString,
  url: z.string().optional(),
  teamname: z.string().nullable().optional(),
  platform: z.string().optional(),
  created_at: z.string().optional(),
});
export type Subscription = z.output<typeof subscription>;

export const subscriptionRemoval = z.looseObject({
  id: idString.optional(),
  removed: z.boolean().optional(),
});
export type SubscriptionRemoval = z.output<typeof subscriptionRemoval>;
