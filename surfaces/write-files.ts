import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GeneratedFiles } from './surface.ts';

/** Plain JSON with two-space indents and a final newline: byte-identical for the same input. */
export const serialise = (content: unknown) => (typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);

/**
 * Writes a surface's generated files into a fresh folder (stale files of an earlier build would
 * otherwise linger), in path order, text as is and anything else as JSON (`serialise`).
 */
export function writeGeneratedFiles(files: GeneratedFiles, folder: string): { files: number; bytes: number } {
  rmSync(folder, { recursive: true, force: true });
  let bytes = 0;
  for (const [path, content] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const target = join(folder, path);
    mkdirSync(dirname(target), { recursive: true });
    const text = serialise(content);
    writeFileSync(target, text);
    bytes += Buffer.byteLength(text);
  }
  return { files: files.size, bytes };
}
