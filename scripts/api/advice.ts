import type { SurfaceId, Verdict } from './model.ts';

/**
 * What users of a surface, and the maintainer releasing it, must do about a difference, in the
 * surface's own terms: each platform has its own way to change what live automations use.
 */

export interface AdviceContext {
  readonly surface: SurfaceId;
  readonly id: string;
  readonly kind: string;
  readonly verdict: Verdict;
  /** The item was hidden in the report compared against: its removal ends a retirement. */
  readonly wasHidden?: boolean;
  /** The platform says such a change depends on the implementation: what to check is in the change. */
  readonly depends?: boolean;
}

/** `node/pagerly/v1/property/…` → the node and the typeVersion the item belongs to. */
export function n8nVersionOf(id: string): { node: string; version: number } | undefined {
  const match = /^node\/([^/]+)\/v(\d+)(?:\/|$)/.exec(id);
  return match ? { node: match[1]!, version: Number(match[2]) } : undefined;
}

const BREAKING: Record<SurfaceId, (context: AdviceContext) => string> = {
  zapier: () =>
    "Zapier: release it as a new major version: Zapier's versioning rules call it breaking (and zapier-platform promote refuses a removed key or input, an input made required without a default, a changed auth or trigger kind); users cannot be migrated across majors, so each Zap's owner moves it by editing it on the new version: say what to change in the release notes.",
  make: () =>
    'Make: a change applies at once to every scenario using the app, and Make has no version to fall back on: publish it as a new app (make:deploy creates one only when told) and keep the old one running.',
  n8n: ({ id }) => {
    const at = n8nVersionOf(id);
    if (at && id !== `node/${at.node}/v${at.version}`) {
      const next = at.version + 1;
      return `n8n: saved workflows keep typeVersion ${at.version} of ${at.node}: add typeVersion ${next} and keep v${at.version} (version: [${Array.from({ length: at.version }, (_, i) => i + 1).join(', ')}, ${next}], the changed parameters shown per @version in displayOptions), so workflows saved on v${at.version} keep running; where one operation feeds every typeVersion, retire it instead (shared/operations/retiring.ts) and add a new one.`;
    }
    return 'n8n: self-hosted users get it when they update n8n-nodes-pagerly, and saved workflows break: release a new major of the package and say what to change in the release notes.';
  },
  cli: () => 'CLI: scripts and pipelines name commands, flags, exit codes and --json keys: release a new major version of @pagerly/cli and say what to change.',
  client: () => 'Client: code that uses it stops compiling or running: release a new major version of @pagerly/client.',
  mcp: () =>
    "MCP: hosts cache tool lists and agents' prompts and allow-lists name tools and arguments: release it in a new major version of @pagerly/cli (pagerly mcp) and say which tools and arguments changed.",
  openapi: () => 'OpenAPI: clients generated from the document break: raise its major version and say what to regenerate.',
  'incident-action': () =>
    'Action: workflows on the moving major tag (uses: …@vN) get it at once: release it under the next major tag and leave the current one where it is.',
  'directory-action': () =>
    'Action: workflows on the moving major tag (uses: …@vN) get it at once: release it under the next major tag and leave the current one where it is.',
};

const COMPATIBLE: Record<SurfaceId, string> = {
  zapier: 'Zapier: a minor or patch version: promote it, then move users with zapier-platform migrate FROM TO PERCENT, a small share first.',
  make: 'Make: reaches every scenario at once on deploy; nothing breaks.',
  n8n: 'n8n: saved workflows keep working; a minor version of n8n-nodes-pagerly.',
  cli: 'CLI: a minor version of @pagerly/cli.',
  client: 'Client: a minor version of @pagerly/client.',
  mcp: 'MCP: hosts see it when they list the tools again; nothing breaks.',
  openapi: 'OpenAPI: a minor version of the document.',
  'incident-action': 'Action: move the current major tag (vN) to it.',
  'directory-action': 'Action: move the current major tag (vN) to it.',
};

/** Where the platform itself says "depends" (Zapier's versioning matrix): check first, then choose the version. */
const DEPENDS: Partial<Record<SurfaceId, string>> = {
  zapier:
    'Zapier: its versioning matrix says this depends on the implementation: check what the line says; if saved Zaps still work, a minor version (then zapier-platform migrate), else a new major version.',
};

export function adviceFor(context: AdviceContext): string {
  if (context.verdict === 'compatible' && context.depends)
    return DEPENDS[context.surface] ?? `Check what the line says before releasing; if saved automations still work, ${COMPATIBLE[context.surface]}`;
  if (context.verdict === 'compatible') return COMPATIBLE[context.surface];
  const advice = BREAKING[context.surface](context);
  // Retiring: hidden in one release, removed in a later major one.
  return context.wasHidden
    ? `It was hidden (being retired): removing it is the retirement's last step, allowed only in a new major version. ${advice}`
    : advice;
}
