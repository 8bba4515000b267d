import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse, stringify } from 'yaml';
import { buildDirectoryAction, DIRECTORY_ACTION_REPOSITORY, directoryActionYml } from '../../github-action/directory/build.ts';
import { modeOf } from '../../github-action/directory/run.ts';
import { actionItems } from '../../scripts/api/action-metadata.ts';
import type { ApiItem } from '../../scripts/api/model.ts';
import { extractor } from '../../scripts/api/surfaces/directory-action.ts';

/**
 * The directory-sync Action's report holds what its built action.yml really declares, and a
 * change to a copy of that metadata (an input made required, an output removed, a default
 * changed) changes the items it should and no other.
 */

type Metadata = { inputs: Record<string, { required: boolean; default?: string }>; outputs: Record<string, unknown> };
const byId = (items: readonly ApiItem[]) => new Map(items.map((i) => [i.id, i]));

describe('the directory Action report against the built action.yml', () => {
  it('has every input with required and default, and every output', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pagerly-directory-action-api-'));
    try {
      await buildDirectoryAction(folder);
      const built = parse(readFileSync(join(folder, 'action.yml'), 'utf8')) as Metadata;
      const report = await extractor.extract();
      const items = byId(report.items);
      expect(report.items.filter((i) => i.kind === 'action-input').map((i) => i.id)).toEqual(
        Object.keys(built.inputs)
          .map((name) => `input/${name}`)
          .sort(),
      );
      for (const [name, input] of Object.entries(built.inputs)) {
        expect(items.get(`input/${name}`)?.facts['required']).toBe(input.required);
        expect(items.get(`input/${name}`)?.facts['default']).toBe(input.default);
      }
      expect(report.items.filter((i) => i.id.startsWith('output/')).map((i) => i.id)).toEqual(
        Object.keys(built.outputs)
          .map((name) => `output/${name}`)
          .sort(),
      );
      expect(items.get('action')?.facts['signature']).toBe(DIRECTORY_ACTION_REPOSITORY);
      // Each mode reported is one the runtime takes, and a value outside them is refused.
      expect(items.get('input/mode')?.facts['choices']).toEqual(['apply', 'auto', 'plan']);
      for (const mode of (items.get('input/mode')?.facts['choices'] ?? []) as string[]) expect(() => modeOf(mode, {}, {})).not.toThrow();
      expect(() => modeOf('deploy', {}, {})).toThrow('it takes auto, plan or apply');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a change to a copy of the metadata', () => {
  it('changes only the input and output it touches', () => {
    const before = byId(actionItems(directoryActionYml(), DIRECTORY_ACTION_REPOSITORY));
    const metadata = parse(directoryActionYml()) as { inputs: Record<string, Record<string, unknown>>; outputs: Record<string, unknown> };
    metadata.inputs['encoding']!['required'] = true;
    metadata.inputs['mode']!['default'] = 'plan';
    delete metadata.outputs['changed'];
    const after = byId(actionItems(stringify(metadata), DIRECTORY_ACTION_REPOSITORY));
    expect(after.get('input/encoding')?.facts['required']).toBe(true);
    expect(after.get('input/mode')?.facts['default']).toBe('plan');
    expect(before.has('output/changed')).toBe(true);
    expect(after.has('output/changed')).toBe(false);
    const changed = new Set(['input/encoding', 'input/mode', 'output/changed']);
    for (const [id, entry] of before) if (!changed.has(id)) expect(after.get(id)).toEqual(entry);
  });
});
