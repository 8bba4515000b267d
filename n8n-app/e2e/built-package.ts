import { buildN8nApp } from '../build-n8n-app.ts';

/**
 * The n8n package a part of the e2e runs: the one `run.ts` built once for all the parts it runs
 * side by side (`--package <folder>`), else built here, for a part run on its own. Parts that
 * each built it would rewrite dist/n8n under one another's feet.
 */
export async function builtPackage(given: string | undefined): Promise<string> {
  return given ?? (await buildN8nApp()).folder;
}
