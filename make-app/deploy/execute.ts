// Runs the planned steps against Make through @makehq/sdk, one request after another, keeping
// the local → remote names of connections and webhooks as Make assigns them.
import {
  MakeError,
  type CreateSDKModuleBody,
  type CreateSDKRPCBody,
  type CreateSDKWebhookBody,
  type JSONValue,
  type Make,
  type SDKConnection,
  type SDKModule,
  type SDKWebhook,
  type UpdateSDKModuleBody,
  type UpdateSDKRPCBody,
} from '@makehq/sdk';
import type { Origin } from './app-folder.ts';
import { apiPaths, type ApiCall } from './api-paths.ts';
import { claimedRemotes, remoteOf, setRemote } from './id-mapping.ts';
import { stepTitle, type SectionStep, type Step } from './plan.ts';

export type Action = 'created' | 'updated' | 'found' | 'adopted' | 'known' | 'set';

export interface StepOutcome {
  step: Step;
  action: Action;
  /** The requests this step made, in order. */
  calls: ApiCall[];
  /** e.g. `connection pagerly → pagerly-acme`. */
  title: string;
}

export interface ExecuteContext {
  make: Make;
  app: { name: string; version: number };
  /** Mutated: idMapping gets every remote name this deploy creates or finds. */
  origin: Origin;
  /** Saves the origin (idMapping) after it changed, so that a later failure loses nothing. */
  persist: () => void;
  onStep?: (outcome: StepOutcome, index: number, total: number) => void;
}

/** A step failed; nothing after it was sent. Never holds the token. */
export class DeployStepError extends Error {
  readonly index: number;
  readonly total: number;
  readonly title: string;
  readonly call: ApiCall | undefined;
  readonly status: number | undefined;
  readonly apiMessage: string;
  readonly completed: readonly StepOutcome[];
  constructor(details: { index: number; total: number; title: string; call?: ApiCall; status?: number; apiMessage: string; completed: readonly StepOutcome[] }) {
    super(`step ${details.index + 1}/${details.total} (${details.title}) failed: ${details.status ? `HTTP ${details.status}: ` : ''}${details.apiMessage}`);
    this.name = 'DeployStepError';
    this.index = details.index;
    this.total = details.total;
    this.title = details.title;
    this.call = details.call;
    this.status = details.status;
    this.apiMessage = details.apiMessage;
    this.completed = details.completed;
  }
}

/** A failure that is not an HTTP error: a precondition the deploy found unmet. */
class StepProblem extends Error {}

// Fields the API takes (Make's VS Code editor sends them, create-remote-component.ts and
// deploy-metadata.ts) but @makehq/sdk 1.6.10's typed bodies lack. The SDK serialises a body
// as given, so these travel with the SDK's own calls; the types below only widen the bodies.
type RemoteRefs = { connection?: string; altConnection?: string };
type ModuleCreateBody = CreateSDKModuleBody & RemoteRefs & { webhook?: string; crud?: string; subtype?: 'Universal' };
type ModuleUpdateBody = UpdateSDKModuleBody & RemoteRefs & { webhook?: string };
type RpcCreateBody = CreateSDKRPCBody & RemoteRefs;
type WebhookCreateBody = CreateSDKWebhookBody & RemoteRefs;

export async function executeSteps(steps: readonly Step[], context: ExecuteContext): Promise<StepOutcome[]> {
  const { make, origin, persist } = context;
  const { name: appName, version } = context.app;
  const mapping = origin.idMapping!;
  const outcomes: StepOutcome[] = [];
  let appCreated = false;
  let calls: ApiCall[] = [];

  // Remote lists, fetched once and only when the app existed before this deploy.
  let remoteConnections: SDKConnection[] | undefined;
  let remoteWebhooks: SDKWebhook[] | undefined;
  let remoteRpcs: Set<string> | undefined;
  let remoteModules: SDKModule[] | undefined;

  const call = async <T>(method: ApiCall['method'], path: string, run: () => Promise<T>): Promise<T> => {
    calls.push({ method, path });
    return run();
  };
  const remember = (type: 'connection' | 'webhook' | 'rpc' | 'module', local: string, remote: string) => {
    if (remoteOf(mapping, type, local) === remote) return;
    setRemote(mapping, type, local, remote);
    persist();
  };
  const remoteRef = (type: 'connection' | 'webhook', local: string | undefined): string | undefined => {
    if (local === undefined) return undefined;
    const remote = remoteOf(mapping, type, local);
    if (!remote) throw new StepProblem(`${type} ${local} has no remote name: it was not deployed (is its idMapping "remote" null?)`);
    return remote;
  };
  const refs = (step: { connection?: string; altConnection?: string }): RemoteRefs => {
    const connection = remoteRef('connection', step.connection);
    const altConnection = remoteRef('connection', step.altConnection);
    return { ...(connection ? { connection } : {}), ...(altConnection ? { altConnection } : {}) };
  };

  const listConnections = async () =>
    (remoteConnections ??= await call('GET', apiPaths.connections(appName), () => make.sdk.connections.list(appName)));
  const listWebhooks = async () =>
    (remoteWebhooks ??= (await call('GET', apiPaths.webhooks(appName), () => make.sdk.webhooks.list(appName))) ?? []);

  /**
   * A connection or webhook this deploy does not know: reuse the one remote of that type with
   * the same label nobody claims (makecomapp.json rebuilt without its idMapping), else create.
   */
  const adoptable = (remotes: readonly { name: string; label: string }[], type: 'connection' | 'webhook', label: string): string | undefined => {
    const claimed = claimedRemotes(mapping, type);
    const same = remotes.filter((remote) => remote.label === label && !claimed.has(remote.name));
    if (same.length > 1) {
      throw new StepProblem(
        `the app already has ${same.length} ${type}s labelled "${label}" (${same.map((remote) => remote.name).join(', ')}) and makecomapp.json does not say which is this one: ` +
          `add {"local": "…", "remote": "<name>"} to origins[0].idMapping.${type} and deploy again`,
      );
    }
    return same[0]?.name;
  };

  /**
   * The name Make gave a created connection/webhook. Make's editor reads it from the create
   * answer; the SDK's type of the webhook answer lacks it, so if it is absent, find the one new
   * unclaimed remote with that label.
   */
  const createdName = async (type: 'connection' | 'webhook', answer: { name?: string } | undefined, label: string, before: ReadonlySet<string>): Promise<string> => {
    if (typeof answer?.name === 'string' && answer.name) return answer.name;
    const remotes =
      type === 'connection'
        ? await call('GET', apiPaths.connections(appName), () => make.sdk.connections.list(appName))
        : ((await call('GET', apiPaths.webhooks(appName), () => make.sdk.webhooks.list(appName))) ?? []);
    const claimed = claimedRemotes(mapping, type);
    const fresh = remotes.filter((remote) => remote.label === label && !claimed.has(remote.name) && !before.has(remote.name));
    if (fresh.length !== 1 || !fresh[0]) {
      throw new StepProblem(`Make created the ${type} "${label}" without telling its name, and it could not be told apart in the app's list: add it to origins[0].idMapping.${type} in makecomapp.json by hand`);
    }
    return fresh[0].name;
  };

  const run = async (step: Step): Promise<{ action: Action; title?: string }> => {
    switch (step.kind) {
      case 'app': {
        try {
          await call('GET', apiPaths.app(appName, version), () => make.sdk.apps.get(appName, version));
          return { action: 'found', title: `app ${appName} v${version}` };
        } catch (error) {
          if (!(error instanceof MakeError) || error.statusCode !== 404) throw error;
        }
        if (version !== 1) {
          throw new StepProblem(`app ${appName} has no version ${version} in Make (HTTP 404); make:deploy creates only version 1 of a new app: create version ${version} in Make first, or set MAKE_APP_VERSION=1`);
        }
        const created = await call('POST', apiPaths.apps(), () => make.sdk.apps.create(step.create));
        appCreated = true;
        persist();
        return { action: 'created', title: `app ${created?.name ?? appName} v${created?.version ?? version}` };
      }
      case 'app-section':
        await call('PUT', apiPaths.appSection(appName, version, step.section), () => make.sdk.apps.setSection(appName, version, step.section, step.file.text));
        return { action: 'set' };
      case 'app-common':
        await call('PUT', apiPaths.appSection(appName, version, 'common'), () => make.sdk.apps.setCommon(appName, version, jsonObject(step.file.text)));
        return { action: 'set' };
      case 'app-readme':
        await call('PUT', apiPaths.appSection(appName, version, 'readme'), () => make.sdk.apps.setDocs(appName, version, step.file.text));
        return { action: 'set' };

      case 'connection': {
        const known = remoteOf(mapping, 'connection', step.id);
        if (known) return { action: 'known', title: `connection ${step.id} → ${known}` };
        const before = appCreated ? [] : await listConnections();
        const adopted = adoptable(before, 'connection', step.label);
        if (adopted) {
          remember('connection', step.id, adopted);
          return { action: 'adopted', title: `connection ${step.id} → ${adopted}` };
        }
        const answer = await call('POST', apiPaths.connections(appName), () => make.sdk.connections.create(appName, { type: step.type, label: step.label }));
        const name = await createdName('connection', answer, step.label, new Set(before.map((remote) => remote.name)));
        remember('connection', step.id, name);
        return { action: 'created', title: `connection ${step.id} → ${name}` };
      }

      case 'webhook': {
        const known = remoteOf(mapping, 'webhook', step.id);
        if (known) return { action: 'known', title: `webhook ${step.id} → ${known}` };
        const before = appCreated ? [] : await listWebhooks();
        const adopted = adoptable(before, 'webhook', step.label);
        if (adopted) {
          remember('webhook', step.id, adopted);
          return { action: 'adopted', title: `webhook ${step.id} → ${adopted}` };
        }
        // `connection` on create: the webhook's params/attach use it (Make's editor sends it).
        const body: WebhookCreateBody = { type: step.type, label: step.label, ...refs(step) };
        const answer = await call('POST', apiPaths.webhooks(appName), () => make.sdk.webhooks.create(appName, body));
        // The SDK types the answer as {label, type}; Make's editor reads `appWebhook.name` from it.
        const name = await createdName('webhook', answer as typeof answer & { name?: string }, step.label, new Set(before.map((remote) => remote.name)));
        remember('webhook', step.id, name);
        return { action: 'created', title: `webhook ${step.id} → ${name}` };
      }

      case 'rpc': {
        if (!appCreated) {
          remoteRpcs ??= new Set((await call('GET', apiPaths.rpcs(appName, version), () => make.sdk.rpcs.list(appName, version))).map((rpc) => rpc.name));
        }
        if (remoteRpcs?.has(step.id)) {
          const body: UpdateSDKRPCBody = { label: step.label, ...refs(step) };
          await call('PATCH', apiPaths.rpc(appName, version, step.id), () => make.sdk.rpcs.update(appName, version, step.id, body));
          remember('rpc', step.id, step.id);
          return { action: 'updated' };
        }
        const body: RpcCreateBody = { name: step.id, label: step.label, ...refs(step) };
        await call('POST', apiPaths.rpcs(appName, version), () => make.sdk.rpcs.create(appName, version, body));
        remember('rpc', step.id, step.id);
        return { action: 'created' };
      }

      case 'module': {
        if (!appCreated) {
          remoteModules ??= await call('GET', apiPaths.modules(appName, version), () => make.sdk.modules.list(appName, version));
        }
        const existing = remoteModules?.find((module) => module.name === step.id);
        const webhook = remoteRef('webhook', step.webhook);
        if (existing) {
          if (existing.typeId !== step.typeId) {
            throw new StepProblem(`module ${step.id} exists in Make with typeId ${existing.typeId}, but makecomapp.json says ${step.moduleType} (typeId ${step.typeId}); a module's type cannot be changed: delete or rename it in Make first`);
          }
          const body: ModuleUpdateBody = { label: step.label, description: step.description, ...refs(step), ...(webhook ? { webhook } : {}) };
          await call('PATCH', apiPaths.module(appName, version, step.id), () => make.sdk.modules.update(appName, version, step.id, body));
          remember('module', step.id, step.id);
          return { action: 'updated' };
        }
        const body: ModuleCreateBody = {
          name: step.id,
          typeId: step.typeId,
          label: step.label,
          description: step.description,
          moduleInitMode: 'blank',
          ...refs(step),
          ...(webhook ? { webhook } : {}),
          ...(step.crud ? { crud: step.crud } : {}),
          ...(step.subtype ? { subtype: step.subtype } : {}),
        };
        await call('POST', apiPaths.modules(appName, version), () => make.sdk.modules.create(appName, version, body));
        remember('module', step.id, step.id);
        return { action: 'created' };
      }

      case 'section':
        await setSection(step);
        return { action: 'set' };
    }
  };

  const setSection = async (step: SectionStep): Promise<void> => {
    const { text } = step.file;
    switch (step.component) {
      case 'connection': {
        const remote = remoteRef('connection', step.id)!;
        const path = apiPaths.connectionSection(remote, step.section);
        if (step.section === 'common') await call('PUT', path, () => make.sdk.connections.setCommon(remote, jsonObject(text)));
        else {
          const section = step.section;
          await call('PUT', path, () => make.sdk.connections.setSection(remote, section, text));
        }
        return;
      }
      case 'webhook': {
        const remote = remoteRef('webhook', step.id)!;
        await call('PUT', apiPaths.webhookSection(remote, step.section), () => make.sdk.webhooks.setSection(remote, step.section, text));
        return;
      }
      case 'rpc':
        await call('PUT', `${apiPaths.rpc(appName, version, step.id)}/${step.section}`, () => make.sdk.rpcs.setSection(appName, version, step.id, step.section, text));
        return;
      case 'module':
        await call('PUT', `${apiPaths.module(appName, version, step.id)}/${step.section}`, () => make.sdk.modules.setSection(appName, version, step.id, step.section, text));
        return;
    }
  };

  for (const [index, step] of steps.entries()) {
    calls = [];
    try {
      const { action, title } = await run(step);
      const outcome: StepOutcome = { step, action, calls, title: title ?? stepTitle(step) };
      outcomes.push(outcome);
      context.onStep?.(outcome, index, steps.length);
    } catch (error) {
      throw new DeployStepError({
        index,
        total: steps.length,
        title: stepTitle(step),
        ...(calls.length > 0 ? { call: calls[calls.length - 1] } : {}),
        ...(error instanceof MakeError && error.statusCode ? { status: error.statusCode } : {}),
        apiMessage: messageOf(error),
        completed: outcomes,
      });
    }
  }
  return outcomes;
}

/** A `common` file's JSON object (app-folder.ts already checked that it is one). */
function jsonObject(text: string): Record<string, JSONValue> {
  return JSON.parse(text) as Record<string, JSONValue>;
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const detail = cause instanceof Error && cause.message && cause.message !== error.message ? ` (${cause.message})` : '';
  return `${error.message}${detail}`;
}

