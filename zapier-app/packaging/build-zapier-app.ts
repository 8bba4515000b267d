import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import cliPackage from 'zapier-platform-cli/package.json' with { type: 'json' };
import { BUNDLE_FILES, bundleApp } from './bundle.ts';
import { inspectZip, type ZipReport } from './inspect-zip.ts';
import { buildZip, stageDir } from './paths.ts';
import { readBuiltApp, reviewZapierApp, zapierReviewRules } from './review.ts';
import { stageApp } from './stage.ts';
import { zapierPlatform } from './zapier-cli.ts';

export interface ZapierBuild {
  bundleBytes: number;
  mapBytes: number;
  /** How many rules of the project's own review ran on the staged app (a finding fails the build). */
  reviewRules: number;
  validation: string;
  /** The inputs were those of the last build: its validated zip was kept, not built again. */
  reused: boolean;
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
  const { bytes: bundleBytes, mapBytes } = await bundleApp();
  // What a reviewer at Zapier would find, checked on the files that are zipped, before the CLI runs.
  const findings = await reviewZapierApp(readBuiltApp(stageDir));
  if (findings.length > 0) {
    throw new Error(`The Zapier app fails the project's review:\n${findings.map((f) => `  ${f.rule}: ${f.problem} (${f.page})`).join('\n')}`);
  }
  const inputs = inputsDigest();
  const stamp = `${buildZip}.inputs`;
  // The CLI's build (an npm install in a temp folder) is most of a build's time; the same
  // inputs give the same zip, so a build whose inputs are unchanged keeps the last one.
  const reused = existsSync(buildZip) && existsSync(stamp) && readFileSync(stamp, 'utf8').startsWith(`${inputs}\n`);
  let validation: string;
  if (reused) {
    validation = readFileSync(stamp, 'utf8').slice(inputs.length + 1);
  } else {
    validation = zapierPlatform(['validate', '--without-style']).trim();
    if (!/No structural errors found/.test(validation)) throw new Error(`zapier-platform validate reported problems:\n${validation}`);
    zapierPlatform(['build', '--skip-validation']);
    writeFileSync(stamp, `${inputs}\n${validation}`);
  }
  return { bundleBytes, mapBytes, reviewRules: zapierReviewRules.length, validation, kept, reused, zip: inspectZip(buildZip, statSync(buildZip).size) };
}

/** What the zip is made of: the staged files and the CLI that packs them (the core's version is in package.json). */
function inputsDigest(): string {
  const hash = createHash('sha256').update(`zapier-platform-cli ${cliPackage.version}\n`);
  for (const file of [...Object.values(BUNDLE_FILES), 'package.json', '.zapierapprc']) hash.update(`${file}\n`).update(readFileSync(`${stageDir}${file}`));
  return hash.digest('hex');
}
