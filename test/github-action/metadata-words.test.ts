import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { actionReadme, actionYml } from '../../github-action/generator/generate.ts';
import { operations } from '../../shared/operations/index.ts';

/**
 * What action.yml tells a workflow author, in a workflow's terms. GitHub's metadata syntax
 * (https://docs.github.com/en/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions,
 * `outputs`) is how a later step reads a value: `steps.<step id>.outputs.<output id>`, by the
 * output's id. A description that points at an output must name one the Action sets, and a
 * workflow has no "map" (a no-code editor's word) to do it with.
 */
const metadata = parse(actionYml({ operations })) as {
  inputs: Record<string, { description: string }>;
  outputs: Record<string, { description: string }>;
};
const texts = [...Object.entries(metadata.inputs), ...Object.entries(metadata.outputs)].map(([name, { description }]) => ({ name, description }));

describe("action.yml's descriptions", () => {
  it('point at outputs by an expression that names an output the Action sets', () => {
    const outputs = Object.keys(metadata.outputs);
    for (const { name, description } of texts) {
      for (const [, output] of description.matchAll(/steps\.<[^>]+>\.outputs(?:\.([\w-]+))?/g)) {
        // Naming the input keeps a failure readable: which description pointed where.
        expect(`${name}: ${output ?? '(no output named)'}`).toBe(`${name}: ${output && outputs.includes(output) ? output : 'an output the Action sets'}`);
      }
    }
    // The inputs that a later update needs say where to get them.
    expect(metadata.inputs['id']!.description).toContain('steps.<its id>.outputs.incident-id');
    expect(metadata.inputs['title']!.description).toContain('fromJSON(steps.<its id>.outputs.incident).title');
  });

  it('speak of passing values, not of mapping fields from a step', () => {
    for (const { name, description } of texts) expect({ name, mapped: /\bmap\b/i.test(description) }).toEqual({ name, mapped: false });
    expect(actionReadme({ operations })).not.toMatch(/\bmap\b/i);
  });

  it('say that incident-id may be empty, and how a later step keeps from creating a second incident', () => {
    // A 2xx without a readable id passes the step with an empty incident-id (assumption
    // `created-id`), and the Action creates whenever `id` is empty: a resolve step fed that
    // output would open a new incident. The output's description is all a workflow author reads.
    const id = metadata.outputs['incident-id']!.description;
    expect(id).toMatch(/Empty .* when the service accepted the incident but gave no ID/);
    expect(id).toContain("if: steps.<its id>.outputs.incident-id != ''");
    expect(metadata.inputs['id']!.description).toContain('Leave it empty to create a new incident.');
  });
});
