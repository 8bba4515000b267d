import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { vendorZodTypes } from './vendor-zod.ts';

/**
 * The client package's declarations (`types/`), what a consumer's compiler reads: tsc's
 * declarations of the client's sources, their `./x.ts` specifiers pointed at the `.js` files
 * they stand beside, and zod's own declarations beside them (vendor-zod.ts). Written by the
 * package build, and by the client's interface report (scripts/api/surfaces/client.ts), which
 * needs nothing else of the package, so this module loads nothing of the operations.
 */

/** The package's name, as npm and API Extractor's report know it. */
export const CLIENT_PACKAGE = '@pagerly/client';

const root = fileURLToPath(new URL('../', import.meta.url));
const entry = fileURLToPath(new URL('./index.ts', import.meta.url));

/** As `tsc --declaration --emitDeclarationOnly` with these options would write them, from the checkout's root. */
export const DECLARATION_OPTIONS: ts.CompilerOptions = {
  declaration: true,
  emitDeclarationOnly: true,
  rewriteRelativeImportExtensions: true,
  allowImportingTsExtensions: true,
  strict: true,
  target: ts.ScriptTarget.ES2024,
  lib: ['lib.es2024.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ['node'],
  skipLibCheck: true,
  rootDir: root,
};

/**
 * Writes the declarations into `typesFolder`, refusing, with each error, what tsc would refuse:
 * sources that do not type-check (`check: 'all'`, the package build), or only what keeps the
 * declarations from being written right (`'declarations'`, the interface report, which `npm test`'s
 * type check backs).
 */
export function writeClientDeclarations(typesFolder: string, { check = 'all' }: { check?: 'all' | 'declarations' } = {}): void {
  const program = ts.createProgram({ rootNames: [entry], options: { ...DECLARATION_OPTIONS, outDir: typesFolder } });
  const emitted = program.emit(undefined, undefined, undefined, true);
  const found =
    check === 'all'
      ? ts.getPreEmitDiagnostics(program)
      : [...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics(), ...program.getDeclarationDiagnostics()];
  const errors = [...found, ...emitted.diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length) {
    const format: ts.FormatDiagnosticsHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(`The client's declarations could not be written:\n${ts.formatDiagnostics(errors, format)}`);
  }
  rewriteDeclarationImports(typesFolder);
  vendorZodTypes(typesFolder);
}

/**
 * tsc keeps the sources' `./x.ts` specifiers in declarations; a consumer's resolver, and
 * arethetypeswrong, look for the `.js` file each declaration stands beside.
 */
function rewriteDeclarationImports(folder: string): void {
  for (const file of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!file.isFile() || !file.name.endsWith('.d.ts')) continue;
    const path = join(file.parentPath, file.name);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/(['"])(\.{1,2}\/[^'"]+)\.ts\1/g, '$1$2.js$1'));
  }
}
