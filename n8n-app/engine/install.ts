// `npm run n8n:install`: every n8n engine line and n8n's package tools into the cache, once;
// later runs reuse them. The e2e and the package check install on first use too: this lets CI
// start the download beside the tests, which use the CPU while it mostly waits on the network
// and disk. `-- --line 2.35` (or `newest`) installs one line only.
import { parseArgs } from 'node:util';
import { cacheDir, ensureEngine, ensureTools, LINES, type LineId, lineDir } from './cache.ts';

const { values } = parseArgs({ options: { line: { type: 'string', multiple: true } } });
const ids = (values.line ?? Object.keys(LINES)) as LineId[];
const unknown = ids.filter((id) => !Object.hasOwn(LINES, id));
if (unknown.length) {
  console.error(`No n8n line ${unknown.join(', ')}: the lines are ${Object.keys(LINES).join(', ')}.`);
  process.exit(2);
}

const started = performance.now();
// The tools first: small, and the package check in the tests uses them once they are whole.
const tools = ensureTools();
console.log(`${tools.what}: ${tools.reused ? 'cached' : `${tools.seconds.toFixed(0)} s`}`);
for (const id of ids) {
  const line = LINES[id];
  for (const step of ensureEngine(line)) console.log(`n8n ${line.n8n} (${id}): ${step.what}: ${step.reused ? 'cached' : `${step.seconds.toFixed(0)} s`}`);
  console.log(`n8n ${line.n8n} ready in ${lineDir(line)}`);
}
console.log(`n8n engines and tools ready in ${cacheDir()} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
