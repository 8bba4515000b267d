// What every deploy step shares: the step itself, the state a deploy carries from step to step,
// and the shape of one component kind (components/: app, connection, RPC, webhook, module).
import type { Make } from '@makehq/sdk';
import type { CodeKey, ComponentMetadata, ComponentType, IdMapping } from '../manifest.ts';
import { remoteOf } from './origin.ts';

export type Action = 'created' | 'updated' | 'found' | 'known' | 'set';

export interface Deploy {
  make: Make;
  app: { name: string; version: number };
  /** Local → remote names; `remember` adds to it and saves it at once, so a later failure loses nothing. */
  mapping: IdMapping;
  remember(type: ComponentType, local: string, remote: string): void;
  /** Set when this deploy created the app: nothing of it can exist in Make yet, so nothing is listed. */
  appCreated: boolean;
  /** The app's RPCs and modules in Make, listed once (only when the app existed). */
  remote: { rpcs?: Set<string>; modules?: Map<string, number> };
}

export interface Step {
  /** e.g. `module createIncident`, `connection pagerly api ← connections/pagerly/pagerly.communication.iml.json`. */
  title: string;
  run(deploy: Deploy): Promise<{ action: Action; title?: string }>;
}

/** One kind of component: how it is created or updated, and where each of its code files goes. */
export interface ComponentKind<Section extends string = string> {
  type: 'connection' | 'rpc' | 'webhook' | 'module';
  /** As the output names it: `RPC`. */
  label: string;
  /** codeFiles key → the SDK's section, in the order they are set (api first). */
  sections: Partial<Record<CodeKey, Section>>;
  ensure(id: string, meta: ComponentMetadata): Step['run'];
  setSection(deploy: Deploy, id: string, section: Section, text: string): Promise<unknown>;
}

/** A component's name in Make; references in makecomapp.json are local ids. */
export function remoteName(deploy: Deploy, type: 'connection' | 'webhook', local: string): string {
  const remote = remoteOf(deploy.mapping, type, local);
  if (!remote) throw new Error(`${type} ${local} has no name in Make: it was not deployed (is its idMapping "remote" null?)`);
  return remote;
}

/** The connection and alternative connection a webhook, RPC or module uses, by their names in Make. */
export const connectionsOf = (deploy: Deploy, meta: ComponentMetadata): { connection?: string; altConnection?: string } => ({
  ...(meta.connection ? { connection: remoteName(deploy, 'connection', meta.connection) } : {}),
  ...(meta.altConnection ? { altConnection: remoteName(deploy, 'connection', meta.altConnection) } : {}),
});

/**
 * Connections and webhooks, which Make names itself: one already in idMapping is kept (only its
 * sections are set again); a new one is created and its name recorded at once.
 */
export async function ensureNamed(deploy: Deploy, type: 'connection' | 'webhook', id: string, create: () => Promise<{ name?: string }>) {
  const known = remoteOf(deploy.mapping, type, id);
  if (known) return { action: 'known' as const, title: `${type} ${id} → ${known}` };
  // Make's own editor reads the name from this answer (integromat/vscode-apps-sdk,
  // src/local-development/create-remote-component.ts), though the SDK's type of it lacks it.
  const { name } = await create();
  if (!name) {
    throw new Error(
      `Make created the ${type} but did not say its name: find it among the app's ${type}s in Make and add {"local": "${id}", "remote": "<its name>"} to idMapping.${type} in the origins file`,
    );
  }
  deploy.remember(type, id, name);
  return { action: 'created' as const, title: `${type} ${id} → ${name}` };
}
