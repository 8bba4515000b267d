import { renderTemplate, type ImlScope } from '../iml/index.ts';
import { baseOf, codeOf, type MakeApp } from './app-folder.ts';
import { execute, withBase, type ExecuteOptions } from './execute.ts';
import { UnsupportedDirectiveError } from './make-error.ts';
import { withoutEmptyValues } from './empty-values.ts';
import { validateParameters } from './validate-parameters.ts';

type Directives = Record<string, unknown>;
type Values = Record<string, unknown>;

const WEBHOOK_KEYS = new Set(['condition', 'output', 'respond']);

/**
 * Runs a generated Make app's components the way Make does: modules and RPCs merged with the
 * Base, relative URLs under its baseUrl; the connection check and webhook attach/detach on
 * their own; IML rendered by our strict evaluator. Every call goes over real HTTP (fetch).
 */
export function makeRunner(app: MakeApp, options: ExecuteOptions = {}) {
  const base = baseOf(app);
  const communication = (type: 'connection' | 'webhook' | 'module' | 'rpc', id: string, code = 'communication') => codeOf(app, type, id, code) as Directives;

  return {
    /** Validates a connection: its request must succeed. Returns what Make would store and show. */
    async testConnection(parameters: Values) {
      const outcome = await execute(`connection ${id(app, 'connection')}`, communication('connection', id(app, 'connection')), { parameters }, options);
      return { data: outcome.data, label: outcome.metadata };
    },

    /** An RPC's options, e.g. the team select's `{label, value}` list. */
    async rpc(rpcId: string, scope: { connection: Values; parameters?: Values }) {
      const outcome = await execute(`rpc ${rpcId}`, withBase(base, communication('rpc', rpcId)), { parameters: {}, ...scope }, options);
      return outcome.bundles;
    },

    /**
     * A module's bundles. An instant trigger's module makes no request: its bundles come from
     * `receive`. A list of requests runs them in order, each merged with the Base, each one's
     * `temp` kept for the next; the last one's output is the module's (Make's "Multiple
     * Requests" page: developers.make.com/custom-apps-documentation/component-blocks/api/multiple-requests).
     */
    async module(moduleId: string, scope: { connection: Values; parameters: Values }) {
      const code = codeOf(app, 'module', moduleId, 'communication') as Directives | Directives[];
      const requests = Array.isArray(code) ? code : [code];
      if (requests.length === 0 || (requests.length === 1 && Object.keys(requests[0]!).length === 0)) return [];
      const parameters = withoutEmptyValues(scope.parameters);
      const component = app.manifest.components.module[moduleId];
      if (component?.codeFiles.mappableParams) validateParameters(`module ${moduleId}`, codeOf(app, 'module', moduleId, 'mappableParams'), parameters);
      let current: ImlScope = { ...scope, parameters };
      let bundles: unknown[] = [];
      for (const [index, directives] of requests.entries()) {
        const where = requests.length === 1 ? `module ${moduleId}` : `module ${moduleId} request ${index + 1}`;
        const outcome = await execute(where, withBase(base, directives), current, options);
        current = { ...current, temp: { ...((current.temp ?? {}) as Values), ...((outcome.temp ?? {}) as Values) } };
        bundles = outcome.bundles;
      }
      return bundles;
    },

    /** Registers the webhook's URL with the service; returns what Make stores as `webhook.*`. */
    async attach(webhookId: string, scope: { connection: Values; parameters: Values; webhook: { id: string; url: string } }) {
      const outcome = await execute(
        `webhook ${webhookId} attach`,
        communication('webhook', webhookId, 'attach'),
        { ...scope, parameters: withoutEmptyValues(scope.parameters) },
        options,
      );
      return (outcome.data ?? {}) as Values;
    },

    async detach(webhookId: string, scope: { connection: Values; parameters: Values; webhook: Values }) {
      await execute(`webhook ${webhookId} detach`, communication('webhook', webhookId, 'detach'), scope, options);
    },

    /** What one delivery to the webhook's URL becomes: no bundle when its condition says no. */
    receive(webhookId: string, delivery: { parameters: Values; body: unknown; headers?: Values; query?: Values; method?: string }) {
      const directives = communication('webhook', webhookId);
      for (const key of Object.keys(directives)) if (!WEBHOOK_KEYS.has(key)) throw new UnsupportedDirectiveError(`webhook ${webhookId}`, key);
      // The webhook's own fields are parameters like any other: empty ones reach it as undefined (empty-values.ts).
      const scope: ImlScope = {
        parameters: withoutEmptyValues(delivery.parameters),
        body: delivery.body,
        headers: delivery.headers ?? {},
        query: delivery.query ?? {},
        method: delivery.method ?? 'POST',
      };
      if (directives.condition !== undefined && !renderTemplate(directives.condition, scope)) return [];
      return [directives.output === undefined ? delivery.body : renderTemplate(directives.output, scope)];
    },
  };
}

/** The app's one connection (this app has exactly one). */
function id(app: MakeApp, type: 'connection'): string {
  const ids = Object.keys(app.manifest.components[type]);
  if (ids.length !== 1) throw new Error(`Expected one ${type}, found ${ids.length}`);
  return ids[0]!;
}

export type MakeRunner = ReturnType<typeof makeRunner>;
