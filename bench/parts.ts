// The parts of `npm run bench`, each loaded only in the process that runs it (bench/part-process.ts):
// the parent (bench/run.ts) holds none of their code, sockets or memory, and a part that runs
// zapier-platform-core runs it in a process of its own, as Zapier runs an app.
import type { measureCliStartup } from './cli-startup.ts';
import type { measureConsoleStream } from './console-stream.ts';
import type { measureFanOut } from './fan-out.ts';
import type { measureHttpLoad } from './http-load.ts';
import type { measureMcpOverhead } from './mcp-overhead.ts';
import type { measureN8nNode } from './n8n-node.ts';
import type { measureScale } from './scale.ts';
import type { measureZapierFootprint } from './zapier-footprint.ts';
import type { measureZapierOverhead } from './zapier-overhead.ts';

type Measure = (settings: never) => Promise<unknown>;

/** Where a part's measure is (a module beside this file and its export), and whether it runs zapier-platform-core in its own process. */
export interface PartSpec<M extends Measure> {
  readonly module: URL;
  readonly measure: string;
  /** Whether it runs core itself (the zip and cold start part runs it in processes of its own, scale in one per surface). */
  readonly runsCore: boolean;
  /** The measure's type, for the settings and figures: never set. */
  readonly type?: M;
}

const part = <M extends Measure>(module: string, measure: string, runsCore = false): PartSpec<M> => ({
  module: new URL(module, import.meta.url),
  measure,
  runsCore,
});

export const PARTS = {
  httpLoad: part<typeof measureHttpLoad>('./http-load.ts', 'measureHttpLoad'),
  fanOut: part<typeof measureFanOut>('./fan-out.ts', 'measureFanOut'),
  zapierOverhead: part<typeof measureZapierOverhead>('./zapier-overhead.ts', 'measureZapierOverhead', true),
  zapierFootprint: part<typeof measureZapierFootprint>('./zapier-footprint.ts', 'measureZapierFootprint', true),
  mcpOverhead: part<typeof measureMcpOverhead>('./mcp-overhead.ts', 'measureMcpOverhead'),
  n8nNode: part<typeof measureN8nNode>('./n8n-node.ts', 'measureN8nNode'),
  cliStartup: part<typeof measureCliStartup>('./cli-startup.ts', 'measureCliStartup'),
  scale: part<typeof measureScale>('./scale.ts', 'measureScale', true),
  consoleStream: part<typeof measureConsoleStream>('./console-stream.ts', 'measureConsoleStream'),
} as const;

export type PartId = keyof typeof PARTS;
type MeasureOf<P extends PartId> = NonNullable<(typeof PARTS)[P]['type']>;
export type SettingsOf<P extends PartId> = Parameters<MeasureOf<P>>[0];
export type FiguresOf<P extends PartId> = Awaited<ReturnType<MeasureOf<P>>>;

/** What a part's process sends its parent once: its figures or why it failed, and its peak memory. */
export type PartMessage = { figures: unknown; peakRssMb: number } | { error: string; peakRssMb: number };
