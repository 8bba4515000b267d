import type { SurfaceSource } from '../../surfaces/surface.ts';

/**
 * The public interface of one surface, as people's automations depend on it: every key, field,
 * command, flag, exit code, tool and output a live Zap, scenario, workflow, script or agent
 * may name. Each surface's extractor (scripts/api/surfaces/) reads it from what is built, the
 * report writer turns it into a sorted, stable text for review, and the classifier compares
 * two of them, item by item and fact by fact.
 */

export type SurfaceId = 'zapier' | 'make' | 'n8n' | 'cli' | 'client' | 'mcp' | 'openapi' | 'incident-action' | 'directory-action';

/** A fact's value; lists are sorted by the extractor unless their order is itself contract. */
export type Fact = string | number | boolean | null | readonly string[];

/**
 * One thing users depend on. `id` is stable and unique within its surface and says where the
 * thing sits, path-like: `create/create_incident/input/title`, `command/incident create/flag/--title`,
 * `exit-code/5`. Renaming a thing changes its id, which the classifier sees as one removed and
 * one added.
 *
 * Fact names the classifier gives a meaning to (an extractor uses them where they apply and
 * may add others, which are then compared as wording):
 * - `type`: the field's, parameter's or output's type as the platform names it; an input that
 *   takes more types, or an output that gives fewer, is compatible; any other change is breaking
 * - `required`: boolean; false → true is breaking unless `default` is set
 * - `default`: the value used when none is given (breaking when changed where saved automations
 *   leave it out: rules.ts DEFAULT_STORED)
 * - `prefill`: the value an editor puts in a field a user adds (saved with the step)
 * - `choices`: the static choices' values, none meaning any value; on an input one removed (or a
 *   list where there was none) is breaking, on an output one added (or the list dropped) is
 * - `accepts`: the values the runtime accepts for an input (its endpoint's schema), as `choices`
 * - `customValues`: values outside the choices are taken too
 * - `list`: whether it takes several values
 * - `dynamic`: where a field's choices come from (a trigger, an RPC, a load-options method)
 * - `positionals`: a command's positional arguments, in order (order is contract)
 * - `exitCode`, `exitCodeIf…`: the exit code a kind of failure gets
 * - `order`: an order that decides something (which exit code wins)
 * - `path`: a path a client is configured with
 * - `kind`: a trigger's kind (`hook`, `polling`), an auth's type, a module's type; a change is breaking
 * - `dedupe`: the field a hook's or poll's item is deduplicated by; a change is breaking
 * - `hidden`: true while an operation is being retired; becoming hidden is compatible
 * - `versions`: an n8n node's typeVersions; one removed is breaking
 * - `meaning`: an exit code's name in cli/exit-table.ts's EXIT (wording: which errors get the number is `exitCode`)
 * - `takesValue`: whether a flag takes a value; a change is breaking
 * - `signature`: an exported declaration's or schema's text; a change is reviewed as breaking
 *   unless the classifier can tell it only widened
 * - `label`, `help`, `description`: wording; a change is compatible
 */
export interface ApiItem {
  readonly id: string;
  /** What the thing is (`trigger`, `create`, `input`, `output`, `module`, `parameter`, `command`, `flag`, `env`, `exit-code`, `tool`, …). */
  readonly kind: string;
  readonly facts: Readonly<Record<string, Fact>>;
}

export interface SurfaceReport {
  readonly surface: SurfaceId;
  readonly items: readonly ApiItem[];
}

export type Verdict = 'breaking' | 'compatible';

/** One difference between two reports of a surface, as the check prints it. */
export interface Difference {
  readonly surface: SurfaceId;
  readonly id: string;
  readonly kind: string;
  /** What changed, in a few words: `removed`, `added`, `required: false → true`, `type: string → number`. */
  readonly change: string;
  readonly verdict: Verdict;
  /** What users of that surface, or the maintainer releasing it, must do about it. */
  readonly advice: string;
  /** Set on the removal of an item that was hidden: the last step of retiring it, which a major version may take. */
  readonly retiring?: boolean;
  /**
   * Set where the platform itself says such a change "depends" (the verdict is then
   * `compatible`): what to check before releasing it. The line says `depends:` before the change.
   */
  readonly depends?: string;
}

/**
 * What an extractor may be given: a copy of the descriptions to build from instead of the real
 * ones (the tests change a copy of the operations and read what each surface then offers). An
 * extractor that cannot build from a copy ignores it and reads the checkout.
 */
export interface ExtractOptions {
  readonly source?: SurfaceSource;
  /**
   * Where an extractor keeps what it built from inputs it has seen before, by a digest of those
   * inputs (kept-reads.ts): in memory for a caller that reads many copies of the sources (the
   * corpus, test/api/corpus/), on disk from one run of the check to the next (`keepDir`).
   */
  readonly cache?: Map<string, unknown>;
  readonly keepDir?: string;
}

/** A surface's report and the files `npm run api:update` writes beside it (API Extractor's `client.api.md`), by name. */
export interface Extracted {
  readonly report: SurfaceReport;
  readonly beside?: Readonly<Record<string, string>>;
}

/** Reads one surface's public interface from its source or its build. */
export interface SurfaceExtractor {
  readonly surface: SurfaceId;
  /** Reads the interface; may build what it needs into a temporary folder, never into dist/. */
  extract(options?: ExtractOptions): Promise<SurfaceReport>;
  /** The report with the files written beside it, from one build, where a surface has such files. */
  extractWithFiles?(options?: ExtractOptions): Promise<Extracted>;
}
