import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The console's files and their types: all it needs, served from memory. */
export const ASSET_TYPES = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'feed-worker.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
} as const;
export type AssetName = keyof typeof ASSET_TYPES;
export type ConsoleAssets = ReadonlyMap<AssetName, Buffer>;

/** The prebuilt files of a folder (as a package ships them); a missing one is named. */
export function readConsoleAssets(folder: string): ConsoleAssets {
  const assets = new Map<AssetName, Buffer>();
  for (const name of Object.keys(ASSET_TYPES) as AssetName[]) {
    try {
      assets.set(name, readFileSync(join(folder, name)));
    } catch (error) {
      throw new Error(`The sandbox console's ${name} could not be read from ${folder}: ${(error as Error).message}`);
    }
  }
  return assets;
}
