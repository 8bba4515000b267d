import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';

export interface BundledPackage {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  /** The text of its LICENSE (or LICENCE, COPYING) file; undefined when it ships none. */
  readonly text: string | undefined;
}

/** `node_modules/a/…`, `node_modules/@s/b/…`, `node_modules/a/node_modules/c/…`: the innermost package's folder. */
const PACKAGE_FOLDER = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//;

/**
 * Every npm package whose code the bundles took in, from esbuild's metafiles (paths relative to
 * `root`, their working folder), with its licence as it ships it. A bundle is a copy of their
 * code: the MIT, ISC and BSD terms most of them use ask for their notice with every copy.
 */
export function bundledPackages(metafiles: readonly Metafile[], root: string): BundledPackage[] {
  const folders = new Set(metafiles.flatMap((metafile) => Object.keys(metafile.inputs).flatMap((input) => PACKAGE_FOLDER.exec(input)?.[1] ?? [])));
  const packages = [...folders].map((folder) => {
    const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { name: string; version: string; license?: unknown };
    const file = existsSync(join(root, folder)) ? readdirSync(join(root, folder)).find((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name)) : undefined;
    return {
      name: manifest.name,
      version: manifest.version,
      license: typeof manifest.license === 'string' ? manifest.license : 'see its package',
      text: file === undefined ? undefined : readFileSync(join(root, folder, file), 'utf8').trim(),
    };
  });
  return packages.toSorted((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The notices to append to the package's LICENSE, one section per bundled package. */
export function thirdPartyNotices(packages: readonly BundledPackage[]): string {
  const sections = packages.map(
    ({ name, version, license, text }) =>
      `## ${name} ${version} (${license})\n\n${text ?? `${name} ships no licence file; its package.json declares ${license}.`}\n`,
  );
  return `\n---\n\nThis package includes the code of the following ${packages.length} npm packages, bundled into lib/ and console/, each under its own licence:\n\n${sections.join('\n')}`;
}
