import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the client package carries of zod, so that it needs no zod installed: esbuild bundles
 * the code of zod/mini it calls into index.js, and this copies the declarations of zod/mini
 * (and of zod's core, which they name) under `types/vendor/zod/`, with the client's
 * declarations pointed at them. A consumer's compiler then finds every type the client's
 * methods name inside the package, whether or not the consumer has zod, and of which version.
 */

const zodRoot = fileURLToPath(new URL('../node_modules/zod/', import.meta.url));
const zodPackage = JSON.parse(readFileSync(join(zodRoot, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, string | { import?: string }>;
};

/** Where the copy goes, inside the package's `types/`. */
const VENDOR = join('vendor', 'zod');

/**
 * zod is MIT: its notice goes with the copy (its code in index.js, its declarations in types/),
 * after the client's own licence in the package's one LICENSE file.
 */
export const ZOD_NOTICE = `
---

This package includes code and type declarations of zod ${zodPackage.version} (https://github.com/colinhacks/zod),
under the following licence:

${readFileSync(join(zodRoot, 'LICENSE'), 'utf8').trim()}
`;

/** A zod specifier (`zod`, `zod/mini`) as the ES module file its exports map names, relative to zod's folder. */
function zodModule(specifier: string): string {
  const subpath = specifier === 'zod' ? '.' : `./${specifier.slice('zod/'.length)}`;
  const target = zodPackage.exports[subpath];
  const file = typeof target === 'string' ? target : target?.import;
  if (!file) throw new Error(`zod exports no ES module for "${specifier}"`);
  return file.replace(/^\.\//, '');
}

/**
 * Every declaration file reachable from these zod modules, as zod's ES module declarations
 * (`.d.ts`, beside the `.d.cts` its exports map gives to the `types` condition): the files a
 * consumer's compiler reads.
 */
function declarationClosure(modules: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file === LOCALES_INDEX && foldedLocales() !== undefined) return;
    // Comments out first: they mention modules too (`import "zod/compile"` in core.d.ts).
    const text = withoutComments(readFileSync(join(zodRoot, file), 'utf8'));
    for (const [, fileName = ''] of text.matchAll(MODULE_SPECIFIER)) {
      if (!fileName.startsWith('.')) throw new Error(`zod's ${file} imports "${fileName}", outside zod: vendor it too`);
      visit(join(dirname(file), fileName).replace(/\.js$/, '.d.ts'));
    }
  };
  for (const module of modules) visit(module.replace(/\.js$/, '.d.ts'));
  return [...seen].sort();
}

/**
 * Every module a declaration file names: `import`, `export ... from` (`export * as locales from`
 * too, which TypeScript's preProcessFile skips) and `import("...")` types.
 */
const MODULE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** A declaration file's text without its comments. */
const withoutComments = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\n\s*\n/g, '\n');

/** zod's locales: an index re-exporting one file per language, each declaring the same function. */
const LOCALES_INDEX = join('v4', 'locales', 'index.d.ts');
const LOCALE_EXPORT = /^export \{ default as ([\w$]+) \} from "\.\/([\w-]+)\.js";$/;

/**
 * The locales' index as one file, when every locale declares the same function (61 files of a
 * few lines, each taking a disk block once installed): that declaration once, exported under
 * each language's name (two `@deprecated` notes are lost). Undefined when they differ: then they
 * are copied as they are.
 */
function foldedLocales(): string | undefined {
  const lines = readFileSync(join(zodRoot, LOCALES_INDEX), 'utf8').trim().split('\n');
  const exports = lines.map((line) => LOCALE_EXPORT.exec(line));
  if (exports.some((match) => match === null)) return undefined;
  // Compared without comments: two locales only add `@deprecated` (kh for km, ua for uk).
  const texts = new Set(exports.map((match) => withoutComments(readFileSync(join(zodRoot, dirname(LOCALES_INDEX), `${match![2]}.d.ts`), 'utf8')).trim()));
  const [text] = texts;
  if (texts.size !== 1 || !text?.includes('export default function (')) return undefined;
  const names = exports.map((match) => `locale as ${match![1]}`).join(', ');
  return `${text.replace('export default function (', 'declare function locale(')}\nexport { ${names} };\n`;
}

const ZOD_SPECIFIER = /(from\s+|import\()(['"])(zod(?:\/[\w./-]+)?)\2/g;

/**
 * Copies zod's declarations the client's declarations in `typesDir` name, and points their
 * `zod...` imports at the copy (`../../vendor/zod/mini/index.js`). Returns the files copied.
 */
export function vendorZodTypes(typesDir: string): string[] {
  const declarations = readdirSync(typesDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
  const named = new Set<string>();
  for (const path of declarations) {
    const text = readFileSync(path, 'utf8');
    const rewritten = text.replace(ZOD_SPECIFIER, (_match, lead: string, quote: string, specifier: string) => {
      const module = zodModule(specifier);
      named.add(module);
      const target = relative(dirname(path), join(typesDir, VENDOR, module))
        .split(sep)
        .join('/');
      return `${lead}${quote}${target.startsWith('.') ? target : `./${target}`}${quote}`;
    });
    if (rewritten !== text) writeFileSync(path, rewritten);
  }
  const files = declarationClosure([...named]);
  for (const file of files) {
    const to = join(typesDir, VENDOR, file);
    mkdirSync(dirname(to), { recursive: true });
    const folded = file === LOCALES_INDEX ? foldedLocales() : undefined;
    if (folded === undefined) copyFileSync(join(zodRoot, file), to);
    else writeFileSync(to, folded);
  }
  return files;
}
