import type { Endpoint } from '../shared/catalog/endpoint.ts';
import type { EndpointKey } from '../shared/catalog/endpoints.ts';
import type { StepVocabulary } from '../shared/operations/step-mentions.ts';
import type { Operation, OperationId } from '../shared/operations/types.ts';
import type { HookEndpoints } from './hook-endpoints.ts';

/** What every surface is made from: the shared descriptions and the catalog (copies of them in tests). */
export interface SurfaceSource {
  readonly operations: readonly Operation[];
  readonly endpoints: Readonly<Record<string, Endpoint>>;
}

/** A surface's output: path (relative to its output folder) → JSON value, text or, for a definition a bundler exports, the value itself. */
export type GeneratedFiles = ReadonlyMap<string, unknown>;

/** How a surface shows an operation: the names users' saved work stores (public contract), and its label. */
export interface ShownName {
  readonly names: readonly string[];
  readonly label?: string;
}

/** The calls behind a surface's on-call trigger: one pair of hook endpoints, or the reads a poll makes. */
export type TriggerCalls = { readonly hook: HookEndpoints } | { readonly poll: readonly EndpointKey[] };

/**
 * One app (or other surface) built from the shared descriptions. A new surface is a folder that
 * exports one of these, plus its entry in the registry, scripts/surfaces.ts: the build, the README's operations
 * table and the new-operation test all iterate the registry.
 */
export interface Surface {
  /** Its name in reports: "Zapier", "Make", "n8n". */
  readonly name: string;
  /** The README column of its public names, e.g. "Zapier key". */
  readonly nameColumn: string;
  /**
   * How its on-call trigger learns of a change: the service calls a URL the trigger subscribed
   * with the platform's hook endpoints (`hook`), or the trigger reads these endpoints on the
   * platform's schedule and compares (`poll`), where the service documents no hook for it.
   * Absent for a surface that describes the service rather than running against it.
   */
  readonly trigger?: TriggerCalls;
  /**
   * Set for such a description (the OpenAPI document): it has no runtime for the hostile
   * battery to drive; says where its agreement with the service is proven instead.
   */
  readonly describesOnly?: { readonly provenBy: string };
  /**
   * Set for a single-purpose surface (the GitHub Action, a pipeline step): the only operations
   * it takes, and why. It shows no other (`nameOf` gives no names), and an operation added to
   * the descriptions leaves it unchanged. It makes none of the hostile battery's reads, so it
   * says where its runtime is proven instead.
   */
  readonly only?: { readonly operations: readonly OperationId[]; readonly why: string; readonly provenBy: string };
  /** How its texts name a step the shared texts mark (`stepOf`, `THIS_STEP`): "the Create Incident step". */
  readonly steps: StepVocabulary;
  /** The operation's public names and label here, from the surface's own name map. */
  nameOf(operation: Operation): ShownName;
  /** Everything the surface is made of, in memory; the same source gives the same files. */
  generate(source: SurfaceSource): GeneratedFiles;
  /** Builds it into dist/ from the real descriptions; returns the lines `npm run build` prints. */
  build(): Promise<string[]>;
}
