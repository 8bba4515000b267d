import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import type { ConsoleFeed } from './feed.ts';
import { boundedText, incidentRow, personRow, subscriptionRow } from './rows.ts';
import '../http/fastify-types.ts';

/** The console's own reads: not journaled, or a page open would fill the journal with itself. */
export const isConsoleRead = (method: string, url: string) =>
  (method === 'GET' || method === 'HEAD') &&
  (url === '/' || url.startsWith('/?') || url === '/favicon.ico' || url.startsWith('/console/') || url.startsWith('/_sandbox/console/'));

const INCIDENT = 'createOrUpdateIncident';
const DIRECTORY = new Set(['upsertDirectoryEntry', 'updateDirectoryPhone', 'changeDirectoryRole']);
const DIRECTORY_REMOVE = 'removeDirectoryEntry';
const SUBSCRIBE = new Set(['subscribeZapierHook', 'subscribeMakeHook']);
const UNSUBSCRIBE = new Set(['unsubscribeZapierHook', 'unsubscribeMakeHook']);

const presentedKey = (request: FastifyRequest) => {
  const key = request.headers[API_KEY_HEADER.toLowerCase()];
  return typeof key === 'string' ? key : undefined;
};

/**
 * Hooks on the sandbox's requests that report what they changed to the feed, reading the
 * world's own records after the route has run (the routes' logic is not repeated here):
 * every request to the journal, and the writes of incidents, the directory and subscriptions.
 * A write counts only when it answered 2xx and the record is in the world (an injected fault
 * that answers 201 changed nothing).
 */
export function tapRequests(app: FastifyInstance, feed: ConsoleFeed): void {
  const scrub = (url: string, request?: FastifyRequest) => feed.scrub(url, request && presentedKey(request));
  /** What a removal removes, read before the route runs, so its row can still be named. */
  const removing = new WeakMap<FastifyRequest, () => void>();

  app.addHook('preHandler', async (request) => {
    const key = request.routeOptions.config.endpoint?.key;
    if (!key || !request.caller) return;
    const { world } = app;
    if (key === DIRECTORY_REMOVE) {
      const email = (request.query as { email?: unknown }).email;
      const person = typeof email === 'string' ? world.personByEmail(request.caller.organization.id, email) : undefined;
      if (person) removing.set(request, () => !world.people.has(person.id) && feed.publish('person', personRow(world, person, true)));
    } else if (UNSUBSCRIBE.has(key)) {
      const id = (request.params as { id?: unknown }).id;
      const subscription = typeof id === 'string' ? world.subscriptions.get(id) : undefined;
      if (subscription)
        removing.set(
          request,
          () => !world.subscriptions.has(subscription.id) && feed.subscription(subscriptionRow(world, subscription, 'unsubscribed', scrub)),
        );
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.routeOptions.config.endpoint?.key;
    if (!key || !request.caller || reply.statusCode >= 300) return payload;
    const removed = removing.get(request);
    if (removed) removed();
    else if (typeof payload === 'string') reportWrite(key, payload, reply.statusCode, request);
    return payload;
  });

  function reportWrite(key: string, payload: string, status: number, request: FastifyRequest): void {
    if (key !== INCIDENT && !DIRECTORY.has(key) && !SUBSCRIBE.has(key)) return;
    let body: { id?: unknown; email?: unknown };
    try {
      body = JSON.parse(payload);
    } catch {
      return;
    }
    const { world } = app;
    const by = request.caller ? boundedText(request.caller.person.name) : null;
    if (key === INCIDENT && typeof body.id === 'string') {
      const incident = world.incidents.get(body.id);
      if (incident) feed.incident(incidentRow(world, incident, status === 201 ? 'opened' : incident.status === 'resolved' ? 'resolved' : 'updated'), by);
    } else if (DIRECTORY.has(key) && typeof body.id === 'string') {
      const person = world.people.get(body.id);
      if (person) feed.publish('person', personRow(world, person));
    } else if (SUBSCRIBE.has(key) && typeof body.id === 'string') {
      const subscription = world.subscriptions.get(body.id);
      if (subscription) feed.subscription(subscriptionRow(world, subscription, 'active', scrub));
    }
  }

  app.addHook('onResponse', async (request, reply) => {
    if (isConsoleRead(request.method, request.routeOptions.url ?? request.url)) return;
    const caller = request.caller;
    feed.request({
      at: new Date().toISOString(),
      method: request.method,
      path: scrub(request.url, request),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      who: caller ? `${boundedText(caller.person.name)} (${boundedText(caller.organization.name)})` : null,
      injected: Boolean(request.injectedFault),
    });
    if (request.method === 'POST' && request.url.split('?')[0] === '/_sandbox/clock' && reply.statusCode < 300) {
      feed.publish('clock', { now: app.sandboxClock.now().toISOString(), mode: app.sandboxClock.mode });
    }
  });
}
