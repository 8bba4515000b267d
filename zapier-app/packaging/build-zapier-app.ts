import { statSync } from 'node:fs';
import { bundleApp } from './bundle.ts';
import { inspectZip, type ZipReport } from './inspect-zip.ts';
import { buildZip } from './paths.ts';
import { stageApp } from './stage.ts';
import { zapierPlatform } from './zapier-cli.ts';

export interface ZapierBuild {
  bundleBytes: number;
  validation: string;
  /** User files rescued from dist/zapier before it was rebuilt. */
  kept: string[];
  zip: ZipReport;
}

/**
 * Stage, bundle, validate offline, then let the CLI build the upload zip without calling
 * Zapier's servers, and prove the zip loads. Validation issues fail the build.
 */
export async function buildZapierApp(): Promise<ZapierBuild> {
  const kept = stageApp();
  const { bytes: bundleBytes } = await bundleApp();
  const validation = zapierPlatform(['validate', '--without-style']).trim();
  if (!/No structural errors found/.test(validation)) throw new Error(`zapier-platform validate reported problems:\n${validation}`);
  zapierPlatform(['build', '--skip-validation']);
  return { bundleBytes, validation, kept, zip: inspectZip(buildZip, statSync(buildZip).size) };
}
