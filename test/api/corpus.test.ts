import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Difference, SurfaceId } from '../../scripts/api/model.ts';
import { FACT_RULES } from '../../scripts/api/rules.ts';
import { extractors } from '../../scripts/api/surfaces/index.ts';
import { CORPUS, type CorpusEdit, type Expected } from './corpus/edits.ts';
import type { EditResult } from './corpus/run-corpus.ts';

/**
 * The corpus that proves the check (test/api/corpus/edits.ts): each realistic pull-request edit
 * made to a scratch copy of the sources, every surface it can reach read by its own extractor,
 * and what the check calls it held on every surface: breaking exactly where a live automation
 * breaks, compatible (or depends, where the platform says so) where it changes harmlessly,
 * nothing where it does not reach; and whether `npm run api:check` would then let it ship
 * without a new major version. The copies are made and read by one child process
 * (corpus/run-corpus.ts), in a process group stopped on every path.
 */

const script = fileURLToPath(new URL('./corpus/run-corpus.ts', import.meta.url));
let child: ReturnType<typeof spawn> | undefined;
let results: Map<string, EditResult>;

function runCorpus(): Promise<EditResult[]> {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', script], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      child = undefined;
      if (code !== 0) reject(new Error(`the corpus runner exited ${code}:\n${err}`));
      else resolve(JSON.parse(out) as EditResult[]);
    });
  });
}

beforeAll(async () => {
  results = new Map((await runCorpus()).map((result) => [result.name, result]));
}, 900_000);
afterAll(() => {
  if (child?.pid) process.kill(-child.pid, 'SIGKILL');
});

const surfacesOf = (differences: readonly Difference[]) => [...new Set(differences.map((d) => d.surface))].sort();
const summary = (differences: readonly Difference[]) =>
  differences.map((d) => `${d.surface} ${d.id}: ${d.verdict}${d.depends ? ' (depends)' : ''}: ${d.change}`);

/** What the differences of one surface amount to: breaking if any is; depends if any says so; else compatible. */
function classOf(differences: readonly Difference[]): 'breaking' | 'compatible' | 'depends' {
  if (differences.some((d) => d.verdict === 'breaking')) return 'breaking';
  return differences.some((d) => d.depends) ? 'depends' : 'compatible';
}

describe('the corpus of pull-request edits', () => {
  it('has at least 40 edits, the issue’s and the earlier ones among them, reaching every surface', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CORPUS.map((edit) => edit.name)).size).toBe(CORPUS.length);
    const reached = new Set(CORPUS.flatMap((edit) => Object.keys(edit.expect)));
    for (const { surface } of extractors) expect({ surface, reached: reached.has(surface) }).toEqual({ surface, reached: true });
    for (const verdict of ['breaking', 'compatible', 'depends'] as const) {
      expect(CORPUS.some((edit) => Object.values(edit.expect).some((want) => (typeof want === 'string' ? want : want[0]) === verdict))).toBe(true);
    }
  });

  it.each(CORPUS.map((edit) => [edit.name, edit] as const))('%s', (name: string, edit: CorpusEdit) => {
    const result = results.get(name)!;
    expect(result.error).toBeUndefined();
    const wanted = Object.keys(edit.expect).sort();
    // Differences on exactly the surfaces expected: nothing elsewhere.
    expect({ surfaces: surfacesOf(result.differences), differences: summary(result.differences) }).toEqual({
      surfaces: wanted,
      differences: expect.any(Array),
    });
    for (const [surface, want] of Object.entries(edit.expect) as [SurfaceId, Expected][]) {
      const [verdict, id] = typeof want === 'string' ? [want, undefined] : want;
      const ofSurface = result.differences.filter((d) => d.surface === surface);
      expect({ surface, class: classOf(ofSurface), differences: summary(ofSurface) }).toEqual({ surface, class: verdict, differences: expect.any(Array) });
      if (id) {
        const matching = ofSurface.filter((d) => d.id.includes(id) && (verdict === 'compatible' || classOf([d]) === verdict));
        expect({ surface, id, found: matching.length > 0, differences: summary(ofSurface) }).toEqual({
          surface,
          id,
          found: true,
          differences: expect.any(Array),
        });
      }
    }
    // What api:check then does: a breaking edit waits for a new major version (on n8n, for a new
    // typeVersion); anything else ships after npm run api:update.
    const breaking = Object.values(edit.expect).some((want) => (typeof want === 'string' ? want : want[0]) === 'breaking');
    expect({ blocked: result.blocked.length > 0 }).toEqual({ blocked: breaking });
    if (edit.shipsAfterUpdate) expect(result.blocked).toEqual([]);
  });

  it('gives each rule a meaning somewhere in the corpus, but those no edit of the sources can show today', () => {
    // No surface has an input that is a list with limits; Zapier's dedupe field (its primary
    // output fields) is set by no description: test/api/platform-changes.test.ts changes it on the
    // built app; the service takes the key in a header only (OpenAPI's `in`): rules.test.ts holds them.
    const notShown = new Set(['maxItems', 'minItems', 'dedupe', 'in']);
    const said = new Set(
      [...results.values()].flatMap((result) => result.differences.flatMap((d) => d.change.split('; ').map((part) => part.split(':')[0]!.trim()))),
    );
    const removedOrAdded = [...results.values()].some((result) => result.differences.some((d) => /^(removed|added)/.test(d.change)));
    expect(removedOrAdded).toBe(true);
    for (const { fact } of FACT_RULES.filter((rule) => !notShown.has(rule.fact))) expect({ fact, said: said.has(fact) }).toEqual({ fact, said: true });
  });
});
