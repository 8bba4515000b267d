/** A package users install from npm: a built folder under dist/ with its own package.json. */
export interface NpmPackage {
  readonly name: string;
  readonly dir: string;
  /** Builds it into `dir`; returns the line `npm run build` prints. */
  build(): Promise<string>;
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * esbuild's banner for an ES module bundle that holds CommonJS code: some of it calls
 * `require()` (for Node's own modules), which an ES module lacks, so the banner makes one.
 */
export const REQUIRE_IN_ESM_BANNER = {
  js: "import { createRequire as __pagerlyRequire } from 'node:module'; const require = __pagerlyRequire(import.meta.url);",
} as const;
