import { describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { RUNTIME_DECLARATIONS } from '../../n8n-app/generator/runtime-types.ts';

/**
 * The package's nodes compile against nodes/shared/runtime.d.ts, written as text beside the
 * runtime it describes (n8n-app/runtime/, bundled into runtime.js). Nothing else ties the two:
 * a runtime function whose signature changed would still build, and fail only inside n8n. So
 * the declarations are compiled here against the real runtime, with the project's compiler
 * options: every declared function must be exported by the runtime with a signature that fits,
 * and the runtime must export nothing the declarations leave out.
 */
const runtimeDir = fileURLToPath(new URL('../../n8n-app/runtime/', import.meta.url));
// In-memory files placed inside the checkout, so that `n8n-workflow` resolves from its node_modules.
const declaredDir = join(runtimeDir, '__declared__');
const CHECK = `import type * as Declared from './runtime.js';
import type { N8nErrorClasses } from '../n8n-api.ts';
import * as Real from '../index.ts';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const fits: { [K in keyof typeof Declared]: (typeof Declared)[K] } = Real;
type Undeclared = Exclude<keyof typeof Real, keyof typeof Declared>;
export const nothingUndeclared: [Undeclared] extends [never] ? true : Undeclared = true;
export const sameErrorClasses: Same<Declared.ErrorClasses, N8nErrorClasses> = true;
`;

function compilerOptions(): ts.CompilerOptions {
  const configFile = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  // The project skips declaration files, which would let a broken import in runtime.d.ts turn its
  // types into `any`, and `any` fits anything: the declarations are the thing checked here.
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, dirname(configFile)).options, skipLibCheck: false };
}

/** The last program: the next one reuses its unchanged files (n8n-workflow's types, the runtime's sources). */
let previous: ts.Program | undefined;

/** The compiler's complaints about the check, given these declarations. */
function problemsWith(declarations: string): string[] {
  const virtual = new Map([
    [join(declaredDir, 'runtime.d.ts'), declarations],
    [join(declaredDir, 'check.ts'), CHECK],
  ]);
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  host.directoryExists = (dir) => dir === declaredDir || (directoryExists?.(dir) ?? ts.sys.directoryExists(dir));
  host.fileExists = (file) => virtual.has(file) || fileExists(file);
  host.readFile = (file) => virtual.get(file) ?? readFile(file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = virtual.get(file);
    return text === undefined ? getSourceFile(file, language, ...rest) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([join(declaredDir, 'check.ts')], options, host, previous);
  previous = program;
  // Only the two files are checked: the runtime's own sources are type-checked by `npm run typecheck`.
  return [...virtual.keys()]
    .flatMap((file) => {
      const source = program.getSourceFile(file);
      return source ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)] : [];
    })
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe("the package's runtime declarations", () => {
  it('fit the runtime they describe, export for export', () => {
    expect(problemsWith(RUNTIME_DECLARATIONS)).toEqual([]);
  }, 120_000);

  // Each drift is its own case: a full type-check each, on a busy machine.
  it('catch a result that changed', () => {
    const changed = RUNTIME_DECLARATIONS.replace('Promise<INodeListSearchResult>', 'Promise<string[]>');
    expect(changed).not.toBe(RUNTIME_DECLARATIONS);
    expect(problemsWith(changed).join('\n')).toContain("The types returned by 'searchTeams(...)' are incompatible");
  }, 120_000);

  it('catch a function the runtime lacks', () => {
    const lacking = `${RUNTIME_DECLARATIONS}\nexport declare function closeIncident(): Promise<void>;\n`;
    expect(problemsWith(lacking).join('\n')).toContain("Property 'closeIncident' is missing");
  }, 120_000);

  it('catch a function they leave out', () => {
    const leftOut = RUNTIME_DECLARATIONS.replace(/\n\/\*\* The trigger's poll[\s\S]*$/, '\n');
    expect(leftOut).not.toContain('pollOnCallChanges');
    expect(problemsWith(leftOut).join('\n')).toContain('"pollOnCallChanges"');
  }, 120_000);

  it('catch a type n8n-workflow does not have, which would otherwise read as `any` and fit anything', () => {
    const renamed = RUNTIME_DECLARATIONS.replaceAll('INodeListSearchResult', 'INodeListSearchResults');
    expect(renamed).not.toBe(RUNTIME_DECLARATIONS);
    expect(problemsWith(renamed).join('\n')).toContain("has no exported member named 'INodeListSearchResults'");
  }, 120_000);
});
