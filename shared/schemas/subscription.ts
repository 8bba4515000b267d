import * as z from 'zod/mini';
import { idString, maybeText, requiredText, teamName } from './primitives.ts';
import { LONGEST } from './text-limits.ts';

export const hookUrl = z.pipe(z.string().check(z.trim()), z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }));

/** `POST /o/{zapier,make,n8n}/subscribe` body (assumption `subscribe`). */
export const subscribeInput = z.object({ url: hookUrl, teamname: z.optional(teamName) });

/** `DELETE /o/{zapier,make,n8n}/subscribe/{id}` (assumption `unsubscribe`). */
// "." and ".." would not stay one path segment: a URL parser resolves them (even as %2e).
export const unsubscribeInput = z.object({
  id: requiredText(LONGEST.subscriptionId, 'is required (the id the subscribe call returned)').check(
    z.refine((id: string) => id !== '.' && id !== '..', 'must be the id the subscribe call returned'),
  ),
});

export const subscription = z.looseObject({
  id: idString,
  url: z.optional(z.string()),
  teamname: maybeText,
  platform: z.optional(z.string()),
  created_at: z.optional(z.string()),
});
export type Subscription = z.output<typeof subscription>;

export const subscriptionRemoval = z.looseObject({
  id: z.optional(idString),
  removed: z.optional(z.boolean()),
});
export type SubscriptionRemoval = z.output<typeof subscriptionRemoval>;
