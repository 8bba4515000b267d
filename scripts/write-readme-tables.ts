// `npm run docs`: rewrites the generated tables (operations in README.md, assumptions in
// docs/assumptions.md) from shared/.
import { readFileSync, writeFileSync } from 'node:fs';
import { tableFiles, withGeneratedTables } from './readme-tables.ts';

for (const file of tableFiles) {
  const path = new URL(`../${file}`, import.meta.url);
  const before = readFileSync(path, 'utf8');
  const after = withGeneratedTables(file, before);
  writeFileSync(path, after);
  console.log(before === after ? `${file}: tables already up to date` : `${file}: tables rewritten`);
}
