// `npm run n8n:repo -- <folder>`: writes the n8n package's own repository tree (n8n-nodes-pagerly)
// into <folder>, a checkout of that repository: everything but .git is replaced. The release
// workflow commits the result there and tags it, and that repository's workflow publishes the
// package with npm provenance (which must name the repository that publishes).
import { resolve } from 'node:path';
import { writeN8nRepository } from '../n8n-app/write-repository.ts';

const [folder] = process.argv.slice(2);
if (!folder) {
  console.error('Usage: npm run n8n:repo -- <folder>   (a checkout of the n8n package repository; all but .git is replaced)');
  process.exit(2);
}
const written = await writeN8nRepository(resolve(folder));
console.log(`n8n repository tree: ${written.length} files written to ${resolve(folder)}`);
