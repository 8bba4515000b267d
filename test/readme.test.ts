import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { assumptions } from '../shared/assumptions.ts';
import { withAssumptionsTable } from '../scripts/assumptions-table.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('lists every assumption of shared/assumptions.ts, as `npm run docs` writes it', () => {
    expect(readme).toBe(withAssumptionsTable(readme));
    for (const { id } of assumptions) expect(readme).toContain(`\`${id}\``);
  });

  it('gives the two commands a new user needs, and CI runs the test one', () => {
    expect(readme).toMatch(/npm install && npm start/);
    expect(readme).toMatch(/npm install && npm test/);
    expect(readFileSync(new URL('../.ci/run', import.meta.url), 'utf8')).toMatch(/npm test/);
  });
});
