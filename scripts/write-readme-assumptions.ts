// `npm run docs`: rewrites the README's assumptions table from shared/assumptions.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { withAssumptionsTable } from './assumptions-table.ts';

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withAssumptionsTable(before);
writeFileSync(path, after);
console.log(before === after ? 'README.md assumptions table already up to date' : 'README.md assumptions table rewritten');
