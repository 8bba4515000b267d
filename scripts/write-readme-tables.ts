// `npm run docs`: rewrites the README's generated tables (assumptions, operations) from shared/.
import { readFileSync, writeFileSync } from 'node:fs';
import { withGeneratedTables } from './readme-tables.ts';

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withGeneratedTables(before);
writeFileSync(path, after);
console.log(before === after ? 'README.md tables already up to date' : 'README.md tables rewritten');
