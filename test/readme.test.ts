import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { assumptions } from '../shared/assumptions.ts';
import { tableFiles, withGeneratedTables } from '../scripts/readme-tables.ts';
import { operations } from '../shared/operations/index.ts';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const readme = read('README.md');

describe('generated tables', () => {
  it('README.md and docs/assumptions.md hold the tables `npm run docs` writes from shared/, up to date', () => {
    expect(tableFiles).toEqual(expect.arrayContaining(['README.md', 'docs/assumptions.md']));
    for (const file of tableFiles) {
      const text = read(file);
      expect({ file, text }).toEqual({ file, text: withGeneratedTables(file, text) });
    }
  });

  it('the operations table in README.md names every operation', () => {
    for (const op of operations) expect(readme).toContain(`\`${op.key}\``);
  });

  it('docs/assumptions.md names every assumption', () => {
    const page = read('docs/assumptions.md');
    for (const { id } of assumptions) expect(page).toContain(`\`${id}\``);
  });
});

describe('README', () => {
  it('gives the two commands a new user needs, and CI runs the test one', () => {
    expect(readme).toMatch(/npm install && npm start/);
    expect(readme).toMatch(/npm install && npm test/);
    expect(read('.ci/run')).toMatch(/npm test/);
  });
});
