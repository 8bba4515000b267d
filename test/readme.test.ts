import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { assumptions } from '../shared/assumptions.ts';
import { withGeneratedTables } from '../scripts/readme-tables.ts';
import { operations } from '../shared/operations/index.ts';
import { surfaces } from '../surfaces/index.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('has the tables `npm run docs` writes from shared/ (assumptions, operations), up to date', () => {
    expect(readme).toBe(withGeneratedTables(readme));
    for (const surface of surfaces) for (const op of operations) for (const name of surface.nameOf(op).names) expect(readme).toContain(`\`${name}\``);
    for (const { id } of assumptions) expect(readme).toContain(`\`${id}\``);
  });

  it('gives the two commands a new user needs, and CI runs the test one', () => {
    expect(readme).toMatch(/npm install && npm start/);
    expect(readme).toMatch(/npm install && npm test/);
    expect(readFileSync(new URL('../.ci/run', import.meta.url), 'utf8')).toMatch(/npm test/);
  });
});
