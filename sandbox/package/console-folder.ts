import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The @pagerly/sandbox package's build defines this (esbuild's define) in every file it bundles.
declare const PAGERLY_SANDBOX_PACKAGE: boolean | undefined;

/**
 * Where the package keeps the console's prebuilt assets: `console/`, beside `bin/` and `lib/`.
 * Every bundled file sits one folder down, so `../console/` from this code, wherever esbuild
 * put it, is that folder. Undefined in the checkout (where `../console/` holds the console's
 * sources, not its assets) and in a package built without the console.
 */
export function packagedConsoleFolder(): string | undefined {
  if (typeof PAGERLY_SANDBOX_PACKAGE === 'undefined') return undefined;
  const folder = fileURLToPath(new URL('../console/', import.meta.url));
  return existsSync(folder) ? folder : undefined;
}

/** The console's options a packaged sandbox starts with: its prebuilt assets, when it has them. */
export function packagedConsole(): { assetsDir?: string } {
  const assetsDir = packagedConsoleFolder();
  return assetsDir === undefined ? {} : { assetsDir };
}
