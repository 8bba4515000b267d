import { describe, expect, it } from '@jest/globals';
import { compareReports } from '../../scripts/api/classify.ts';
import type { ApiItem, Fact, SurfaceId } from '../../scripts/api/model.ts';

/**
 * The written rules fact by fact, on one item changed at a time, including the facts only the
 * other surfaces' extractors give (an exit code's meaning, a flag's value, a declaration's
 * signature): whichever surface reports them, the same rule applies.
 */

function verdictOf(kind: string, before: Record<string, Fact>, after: Record<string, Fact>, surface: SurfaceId = 'cli') {
  const item = (facts: Record<string, Fact>): ApiItem => ({ id: 'x/y', kind, facts });
  const [difference, ...more] = compareReports({ surface, items: [item(before)] }, { surface, items: [item(after)] });
  expect(more).toEqual([]);
  return difference && [difference.verdict, difference.change];
}

describe('the rules, fact by fact', () => {
  it.each([
    ["an exit code's meaning", 'exit-code', { meaning: 'NOT_FOUND' }, { meaning: 'CONFIG' }, 'breaking'],
    ['a flag starting to take a value', 'flag', { takesValue: false }, { takesValue: true }, 'breaking'],
    ["a declaration's signature", 'function', { signature: 'f(a: string): void' }, { signature: 'f(a: string, b?: number): void' }, 'breaking'],
    ['a label', 'input', { label: 'Title' }, { label: 'Incident title' }, 'compatible'],
    ['a help text', 'input', { help: 'a' }, { help: 'b' }, 'compatible'],
    ['an input made optional', 'input', { required: true }, { required: false }, 'compatible'],
    ['an output that may now be missing', 'output', { required: true }, { required: false }, 'breaking'],
    ['an output now always there', 'output', { required: false }, { required: true }, 'compatible'],
    ['an input widened to more types', 'input', { type: 'string' }, { type: 'number|string' }, 'compatible'],
    ['an input narrowed to fewer types', 'input', { type: 'number|string' }, { type: 'string' }, 'breaking'],
    ['an output that may now be null', 'output', { type: 'string' }, { type: 'null|string' }, 'breaking'],
    ["an input's maximum length lowered", 'input', { maxLength: 255 }, { maxLength: 100 }, 'breaking'],
    ["an input's maximum length raised", 'input', { maxLength: 100 }, { maxLength: 255 }, 'compatible'],
    ["an input's minimum raised", 'input', { minimum: 1 }, { minimum: 2 }, 'breaking'],
    ["an input's limit newly set", 'input', {}, { maxItems: 10 }, 'breaking'],
    ["an output's maximum length lowered", 'output', { maxLength: 255 }, { maxLength: 100 }, 'compatible'],
    ["an input's pattern", 'parameter', { pattern: 'sha256:a' }, { pattern: 'sha256:b' }, 'breaking'],
    ['a dropdown source changed', 'input', { dynamic: 'team.name.name' }, { dynamic: 'team.id.name' }, 'breaking'],
    ['a dropdown source dropped (a free field)', 'input', { dynamic: 'team.name.name' }, {}, 'compatible'],
    ['a value the output may take added', 'output', { choices: ['a'] }, { choices: ['a', 'b'] }, 'breaking'],
    ['a single field made a list', 'input', { list: false }, { list: true }, 'breaking'],
    ['the default of a required input lost', 'input', { required: true, default: 'P3' }, { required: true }, 'breaking'],
    ['the default of an optional input changed', 'input', { required: false, default: 'P3' }, { required: false, default: 'P4' }, 'compatible'],
    ['a module of another type', 'module', { kind: 'action' }, { kind: 'search' }, 'breaking'],
    ['hidden again shown', 'create', { hidden: true }, {}, 'compatible'],
  ] as const)('%s: %s', (_name, kind, before, after, verdict) => {
    expect(verdictOf(kind, before, after)?.[0]).toBe(verdict);
  });

  it('names each fact that changed, and the worst verdict decides', () => {
    expect(verdictOf('input', { label: 'A', required: false }, { label: 'B', required: true })).toEqual([
      'breaking',
      'label: "A" → "B"; required: false → true',
    ]);
  });

  it('an item that changed its kind under the same id: breaking', () => {
    const [difference] = compareReports(
      { surface: 'cli', items: [{ id: 'x', kind: 'flag', facts: {} }] },
      { surface: 'cli', items: [{ id: 'x', kind: 'command', facts: {} }] },
    );
    expect([difference?.verdict, difference?.change]).toEqual(['breaking', 'kind of item: flag → command']);
  });

  it.each([
    ['cli', /^CLI: .*new major version of @pagerly\/cli/],
    ['client', /^Client: .*new major version of @pagerly\/client/],
    ['openapi', /^OpenAPI: .*major version/],
    ['incident-action', /^Action: .*moving major tag .*next major tag/],
    ['directory-action', /^Action: .*moving major tag .*next major tag/],
  ] as const)('says what to do on %s, in its own terms', (surface, advice) => {
    const [difference] = compareReports({ surface, items: [{ id: 'x', kind: 'flag', facts: {} }] }, { surface, items: [] });
    expect(difference?.advice).toMatch(advice);
  });
});

describe('a removed exit code', () => {
  it('says what it meant, so the reader knows which pipelines branch on it', () => {
    const five = { id: 'exit-code/5', kind: 'exit-code', facts: { meaning: 'mayHaveApplied' } };
    const six = { id: 'exit-code/6', kind: 'exit-code', facts: { meaning: 'mayHaveApplied' } };
    const [removed] = compareReports({ surface: 'cli', items: [five] }, { surface: 'cli', items: [six] }).filter((d) => d.id === 'exit-code/5');
    expect(removed).toMatchObject({ verdict: 'breaking', change: expect.stringContaining('removed (it meant "mayHaveApplied")') });
  });
});
