import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { assumptions } from '../shared/assumptions.ts';
import { endpoints } from '../shared/catalog/endpoints.ts';
import { tableFiles, withGeneratedTables } from '../scripts/readme-tables.ts';
import { operations } from '../shared/operations/index.ts';
import { surfaces } from '../scripts/surfaces.ts';

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

  it('the operations table in README.md names every operation on every surface', () => {
    for (const surface of surfaces) for (const op of operations) for (const name of surface.nameOf(op).names) expect(readme).toContain(`\`${name}\``);
  });

  it('docs/assumptions.md says of every call whether it is documented, and the fallback of each that is not', () => {
    const page = read('docs/assumptions.md');
    for (const endpoint of Object.values(endpoints)) {
      const row = page.split('\n').find((line) => line.startsWith(`| \`${endpoint.method} ${endpoint.path}\` |`));
      expect({ path: endpoint.path, row: row !== undefined }).toEqual({ path: endpoint.path, row: true });
      expect({ path: endpoint.path, fallback: endpoint.documented || (endpoint.withoutIt ?? '').length > 0 }).toEqual({ path: endpoint.path, fallback: true });
    }
  });

  it('docs/assumptions.md names every assumption', () => {
    const page = read('docs/assumptions.md');
    for (const { id } of assumptions) expect(page).toContain(`\`${id}\``);
  });
});

/** Every page of the documentation besides the README (docs/ also holds the pictures the pages show, in folders). */
const pages = [
  'ARCHITECTURE.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...readdirSync(new URL('../docs/', import.meta.url))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('README', () => {
  it('is a landing page of at most 8,000 bytes', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(8_000);
  });

  it('names the three apps, the CLI, the typed client and the instant trigger in its first paragraph', () => {
    const first = readme.split('\n\n').find((paragraph) => !paragraph.startsWith('#')) ?? '';
    for (const name of ['Zapier', 'Make', 'n8n', 'CLI', 'typed client', 'instant on-call trigger'])
      expect({ name, first }).toEqual({ name, first: expect.stringContaining(name) });
  });

  it('links every doc, and each one exists', () => {
    for (const page of [
      'docs/zapier.md',
      'docs/make.md',
      'docs/n8n.md',
      'docs/cli.md',
      'docs/client.md',
      'docs/guarantees.md',
      'docs/assumptions.md',
      'docs/benchmarks.md',
    ]) {
      expect(pages).toContain(page);
    }
    for (const page of pages) {
      expect({ page, linked: readme.includes(`](${page})`) }).toEqual({ page, linked: true });
      expect({ page, exists: existsSync(new URL(`../${page}`, import.meta.url)) }).toEqual({ page, exists: true });
    }
    expect(existsSync(new URL('../DEVELOPERS.md', import.meta.url))).toBe(false);
  });

  it('gives the two commands a new user needs, and CI runs the test one', () => {
    expect(readme).toMatch(/npm install && npm start/);
    expect(readme).toMatch(/npm install && npm test/);
    expect(read('.ci/run')).toMatch(/npm test/);
  });
});

describe('docs', () => {
  it('cite no issue number and no longer speak of two apps where there are three', () => {
    for (const page of ['README.md', ...pages]) {
      const text = read(page);
      expect({ page, found: text.match(/\bissues? #?\d+|\bboth (apps|platforms)\b/gi) }).toEqual({ page, found: null });
    }
  });

  it('link only to files that exist', () => {
    for (const page of ['README.md', ...pages]) {
      const base = new URL(`../${page}`, import.meta.url);
      for (const [, target] of read(page).matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)) {
        expect({ page, target, exists: existsSync(new URL(target as string, base)) }).toEqual({ page, target, exists: true });
      }
    }
  });
});
