import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { buildN8nApp } from '../../n8n-app/build-n8n-app.ts';

/**
 * The built package as n8n loads it, from a fresh build into a scratch folder: every emitted
 * file runs in strict mode, and every file requires nothing from outside the package but
 * n8n-workflow, which the engine provides (n8n's lint rule no-restricted-imports and its
 * verification guidelines: https://docs.n8n.io/integrations/creating-nodes/build/reference/verification-guidelines/).
 */
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'n8n-package-'));
  await buildN8nApp(folder);
}, 60_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

/** Whether a script's first statement is the "use strict" directive (ECMA-262 §11.2.1, the directive prologue). */
function opensStrict(code: string): boolean {
  const first = ts.createSourceFile('file.js', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS).statements[0];
  return first !== undefined && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) && first.expression.text === 'use strict';
}

/** What a CommonJS file requires (esbuild writes every import as `require("…")`). */
const requiresOf = (code: string) => [...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!);

describe('the built n8n package', () => {
  it('keeps strict mode in every emitted file: each opens with "use strict"', () => {
    const emitted = filesUnder(join(folder, 'dist')).filter((path) => path.endsWith('.js'));
    expect(emitted.length).toBe(4);
    expect(emitted.filter((path) => !opensStrict(readFileSync(path, 'utf8'))).map((path) => relative(folder, path))).toEqual([]);
  });

  it('notices a banner written before the directive, which turns strict mode off', () => {
    const runtime = readFileSync(join(folder, 'dist/nodes/shared/runtime.js'), 'utf8');
    expect(opensStrict(`var zodScope = {};\n${runtime}`)).toBe(false);
    expect(opensStrict(`// a comment keeps it\n${runtime}`)).toBe(true);
  });

  it('requires nothing from outside itself: relative paths inside the package, n8n-workflow and nothing else', () => {
    const shipped = filesUnder(folder).filter((path) => path.endsWith('.js'));
    const outside: string[] = [];
    for (const path of shipped) {
      for (const specifier of requiresOf(readFileSync(path, 'utf8'))) {
        if (specifier === 'n8n-workflow') continue;
        if (builtinModules.includes(specifier.replace(/^node:/, ''))) {
          outside.push(`${relative(folder, path)}: ${specifier} (a Node built-in, which n8n Cloud refuses)`);
          continue;
        }
        const target = resolve(dirname(path), specifier);
        const inside = !relative(folder, target).startsWith('..') && specifier.startsWith('.');
        if (!inside || !existsSync(`${target}.js`)) outside.push(`${relative(folder, path)}: ${specifier}`);
      }
    }
    expect(outside).toEqual([]);
    expect(requiresOf(readFileSync(join(folder, 'dist/nodes/Pagerly/Pagerly.node.js'), 'utf8'))).toEqual(['n8n-workflow', '../shared/runtime']);
  });

  it('holds the sources beside dist/, none of which point outside the package', () => {
    const sources = filesUnder(folder).filter((path) => path.endsWith('.ts') && !path.includes(`${folder}/dist/`));
    expect(sources.length).toBe(4);
    const imports = sources.flatMap((path) => [...readFileSync(path, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => [path, m[1]!] as const));
    for (const [path, specifier] of imports) {
      if (specifier === 'n8n-workflow') continue;
      expect(relative(folder, resolve(dirname(path), specifier)).startsWith('..')).toBe(false);
      expect(existsSync(`${resolve(dirname(path), specifier)}.d.ts`)).toBe(true);
    }
  });
});
