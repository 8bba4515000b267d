import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import { assumptions } from '../../shared/assumptions.ts';
import { errorBody } from '../../shared/schemas/error-body.ts';
import { ASSET_TYPES, readConsoleAssets, type AssetName, type ConsoleAssets } from './assets.ts';
import type { ConsoleFeed } from './feed.ts';
import { refusal } from './loopback.ts';
import type { AssumptionRow, ListPage, PersonRow, Snapshot, SnapshotPage, TeamRow } from './messages.ts';
import { boundedText, incidentRow, idAndName, personRow, subscriptionRow } from './rows.ts';
import { tapRequests } from './taps.ts';
import '../http/fastify-types.ts';

export interface ConsoleOptions {
  feed: ConsoleFeed;
  /** Prebuilt files (`buildConsoleAssets`); without it the page is bundled in memory at its first request (the repository has esbuild). */
  assetsDir?: string;
  /** Serve the console and the keyless controls to requests from other machines too, not only from loopback. */
  allowRemote?: boolean;
}

/**
 * Every console answer: no script but the console's own file, no inline script or style, no
 * eval, no framing; nothing sniffed into another type; nothing cached or sent on as a referrer.
 */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
} as const;

const HEARTBEAT_MS = 15_000;
/**
 * Open console streams at most: a page (or a script) opening them in a loop cannot exhaust the
 * sandbox. A browser opens one whatever its number of console tabs (they share it).
 */
export const MAX_STREAMS = 64;
/** When a refused stream may try again: the page waits at least this long, more as it keeps being refused. */
const STREAMS_FULL_RETRY_SECONDS = 2;
const SNAPSHOT_ROWS = 200;
const MAX_PAGE = 100;
/** Paths behind the loopback and same-origin rules: the page, its files, its feed and every keyless control. */
const guarded = (route: string) =>
  route === '/' || route.startsWith('/?') || route === '/favicon.ico' || route.startsWith('/console/') || route.startsWith('/_sandbox/');

const lastOf = <T>(items: Iterable<T>, count: number): T[] => {
  const all = [...items];
  return all.slice(Math.max(0, all.length - count));
};

function pageQuery(query: unknown): { offset: number; limit: number; q: string } {
  const { offset, limit, q } = (query ?? {}) as Record<string, unknown>;
  const whole = (value: unknown, fallback: number) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : fallback);
  return { offset: whole(offset, 0), limit: Math.min(MAX_PAGE, Math.max(1, whole(limit, 25))), q: typeof q === 'string' ? q.trim().toLowerCase() : '' };
}

/**
 * The sandbox's console: a page at `/` that shows, live, what the sandbox is doing (teams and
 * who is on call, incidents and who opened them, the directory, hooks and every delivery
 * attempt, the request journal) and drives the controls. The feed (`/_sandbox/console/events`)
 * sends a snapshot, then changes; long lists are read a page at a time. Only to loopback
 * callers unless `allowRemote`; never a key in anything it sends.
 */
export const consolePlugin = fp<ConsoleOptions>(
  async (app, options) => {
    const { feed } = options;
    const scrub = (url: string) => feed.scrub(url);
    let assets: Promise<ConsoleAssets> | undefined = options.assetsDir === undefined ? undefined : Promise.resolve(readConsoleAssets(options.assetsDir));
    const loadAssets = () => {
      assets ??= import('./build-assets.ts').then(({ buildConsoleAssetsInMemory }) => buildConsoleAssetsInMemory());
      return assets;
    };

    app.addHook('onRequest', async (request, reply) => {
      // The route the request reached, not its raw text: `/%5Fsandbox/clock` reaches `/_sandbox/clock` too.
      if (!guarded(request.routeOptions.url ?? request.url)) return;
      const why = refusal(request, options.allowRemote ?? false);
      if (why) return reply.code(403).headers(SECURITY_HEADERS).type('application/json; charset=utf-8').send(errorBody(why));
    });
    tapRequests(app, feed);
    // The console's pages of rows and its snapshot carry texts callers wrote: no key goes out in one.
    app.addHook('onSend', async (request, _reply, payload) =>
      typeof payload === 'string' && (request.routeOptions.url ?? '').startsWith('/_sandbox/console/') ? feed.withoutKeys(payload) : payload,
    );

    const clockRow = () => ({ now: app.sandboxClock.now().toISOString(), mode: app.sandboxClock.mode });
    const snapshot = (): Snapshot => {
      const { world } = app;
      return {
        clock: clockRow(),
        totals: {
          organizations: world.organizations.size,
          teams: world.teams.size,
          people: world.people.size,
          incidents: world.incidents.size,
          subscriptions: world.subscriptions.size,
        },
        incidents: lastOf(world.incidents.values(), SNAPSHOT_ROWS).map((incident) => ({
          ...incidentRow(world, incident, incident.status === 'resolved' ? 'resolved' : incident.created_at === incident.updated_at ? 'opened' : 'updated'),
          by: feed.authorOf(incident.id),
        })),
        onCallChanges: feed.onCallChanges.newest(),
        subscriptions: [
          ...feed.goneSubscriptions.newest(),
          ...lastOf(world.subscriptions.values(), SNAPSHOT_ROWS).map((s) => subscriptionRow(world, s, 'active', scrub)),
        ],
        deliveries: feed.deliveries.newest(),
        journal: feed.journal.newest(),
        faults: feed.pendingFaults(),
      };
    };

    const sendAsset = async (name: AssetName, reply: FastifyReply) => {
      const body = (await loadAssets()).get(name);
      return reply.headers(SECURITY_HEADERS).type(ASSET_TYPES[name]).send(body);
    };
    app.get('/', (_request, reply) => sendAsset('index.html', reply));
    app.get('/console/app.js', (_request, reply) => sendAsset('app.js', reply));
    app.get('/console/feed-worker.js', (_request, reply) => sendAsset('feed-worker.js', reply));
    app.get('/console/console.css', (_request, reply) => sendAsset('console.css', reply));
    // Browsers ask for it whatever the page says; an empty answer keeps a 404 out of the way.
    app.get('/favicon.ico', (_request, reply) => reply.code(204).headers(SECURITY_HEADERS).send());

    // No automatic HEAD route: a HEAD would take a stream's place and, reading nothing, never be dropped.
    app.get('/_sandbox/console/events', { exposeHeadRoute: false }, (request, reply) => {
      // Another process may hold every stream: 503 says it is the sandbox's limit, not this
      // client's doing, and the page reads why from the body and tries again by itself.
      if (feed.clientCount >= MAX_STREAMS) {
        return reply
          .code(503)
          .headers({ ...SECURITY_HEADERS, 'retry-after': String(STREAMS_FULL_RETRY_SECONDS) })
          .send(
            errorBody(
              `The sandbox serves ${MAX_STREAMS} console event streams at once, and ${MAX_STREAMS} are open: other browsers, or programs reading /_sandbox/console/events, hold them`,
            ),
          );
      }
      reply.hijack();
      const raw = reply.raw;
      // `connection: close`: once the stream ends, so does its socket, so no idle connection outlives a shutdown.
      raw.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'close', 'x-accel-buffering': 'no' });
      const client = {
        write: (text: string) => void raw.write(text),
        get backlog() {
          return raw.writableLength;
        },
        // A page that stopped reading would keep unsent bytes, and end() would wait for them forever.
        end: () => (raw.writableLength > 0 ? raw.destroy() : raw.end()),
      };
      const lastEventId = request.headers['last-event-id'];
      feed.connect(client, typeof lastEventId === 'string' ? lastEventId : undefined, snapshot);
      raw.on('close', () => feed.disconnect(client));
    });

    // The state a page starts from when it cannot hold a stream (or a tab joins a shared one):
    // with its id, a stream opened later resumes right after it.
    app.get('/_sandbox/console/snapshot', async (_request, reply): Promise<SnapshotPage> => {
      reply.headers(SECURITY_HEADERS);
      return { id: feed.lastEventId, snapshot: snapshot() };
    });

    app.get('/_sandbox/console/teams', async (request, reply): Promise<ListPage<TeamRow>> => {
      const { offset, limit, q } = pageQuery(request.query);
      const { world } = app;
      const at = app.sandboxClock.now();
      const teams = [...world.teams.values()].filter((team) => q === '' || team.name.toLowerCase().includes(q));
      const page = teams.slice(offset, offset + limit);
      reply.headers(SECURITY_HEADERS);
      return {
        total: teams.length,
        offset,
        at: at.toISOString(),
        items: page.map((team) => ({
          id: boundedText(team.id),
          org: boundedText(world.organizations.get(team.orgId)?.name ?? team.orgId),
          name: boundedText(team.name),
          onCall: world.onCallIn(team, at).map(idAndName),
        })),
      };
    });

    app.get('/_sandbox/console/people', async (request, reply): Promise<ListPage<PersonRow>> => {
      const { offset, limit, q } = pageQuery(request.query);
      const { world } = app;
      const people = [...world.people.values()].filter((person) => q === '' || person.name.toLowerCase().includes(q) || person.email.toLowerCase().includes(q));
      reply.headers(SECURITY_HEADERS);
      return {
        total: people.length,
        offset,
        at: app.sandboxClock.now().toISOString(),
        items: people.slice(offset, offset + limit).map((person) => personRow(world, person)),
      };
    });

    app.get('/_sandbox/console/assumptions', async (_request, reply): Promise<AssumptionRow[]> => {
      reply.headers(SECURITY_HEADERS);
      return assumptions.map(({ id, topic, choice }) => ({ id, topic, choice }));
    });

    const heartbeat = setInterval(() => {
      feed.heartbeat();
      if (feed.clientCount > 0) feed.publish('clock', clockRow());
    }, HEARTBEAT_MS).unref();
    // Open streams end before the server stops listening: a page left open never holds a shutdown.
    app.addHook('preClose', async () => {
      clearInterval(heartbeat);
      feed.closeAll();
    });
  },
  { name: 'sandbox-console', dependencies: ['sandbox-state'] },
);
