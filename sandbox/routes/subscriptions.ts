import { notFound } from '../http/service-error.ts';
import type { Platform } from '../world/records.ts';
import { subscriptionView } from '../world/views.ts';
import { catalogRoutes, type Call } from './catalog-routes.ts';
import { teamNamedOr404 } from './team-named-or-404.ts';

/**
 * REST hooks for on-call changes, one path pair per automation platform (assumptions
 * `subscribe`, `unsubscribe`). A subscription is found only under its own platform's path.
 */
export const subscriptionRoutes = catalogRoutes('subscription routes', {
  subscribeZapierHook: (call) => subscribe('zapier', call),
  subscribeMakeHook: (call) => subscribe('make', call),
  unsubscribeZapierHook: (call) => unsubscribe('zapier', call),
  unsubscribeMakeHook: (call) => unsubscribe('make', call),
});

function subscribe(platform: Platform, { input, caller, world, now, reply }: Call<'subscribeZapierHook' | 'subscribeMakeHook'>) {
  const orgId = caller.organization.id;
  const team = input.teamname === undefined ? null : teamNamedOr404(world, orgId, input.teamname);
  const subscription = world.addSubscription(orgId, { platform, url: input.url, teamId: team?.id ?? null }, now.toISOString());
  reply.code(201);
  return subscriptionView(subscription, team?.name ?? null);
}

function unsubscribe(platform: Platform, { input, caller, world }: Call<'unsubscribeZapierHook' | 'unsubscribeMakeHook'>) {
  const subscription = world.subscriptionOf(caller.organization.id, platform, input.id);
  if (!subscription) throw notFound(`No ${platform} subscription with id "${input.id}" in this organization`);
  world.removeSubscription(subscription.id);
  return { id: subscription.id, removed: true };
}
