import type { SurfaceExtractor, SurfaceId } from '../model.ts';

/**
 * Every surface whose public interface is reported, in the order the check prints them. Each
 * loads on first use, so a check of one surface does not load the others' generators. A new
 * surface is one line here and one file beside this one exporting `extractor`. `ownThread`: read
 * on a thread of its own, beside the others (fresh-reports.ts), for a long CPU-bound build.
 */
export const extractors: readonly { readonly surface: SurfaceId; readonly ownThread?: true; load(): Promise<SurfaceExtractor> }[] = [
  { surface: 'zapier', load: async () => (await import('./zapier.ts')).extractor },
  { surface: 'make', load: async () => (await import('./make.ts')).extractor },
  { surface: 'n8n', load: async () => (await import('./n8n.ts')).extractor },
  { surface: 'mcp', load: async () => (await import('./mcp.ts')).extractor },
  { surface: 'cli', load: async () => (await import('./cli.ts')).extractor },
  { surface: 'client', ownThread: true, load: async () => (await import('./client.ts')).extractor },
  { surface: 'openapi', load: async () => (await import('./openapi.ts')).extractor },
  { surface: 'incident-action', load: async () => (await import('./incident-action.ts')).extractor },
  { surface: 'directory-action', load: async () => (await import('./directory-action.ts')).extractor },
];
