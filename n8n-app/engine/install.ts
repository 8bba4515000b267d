// `npm run n8n:install`: the n8n engine and n8n's package tools into the cache, once; later runs
// reuse them. The e2e and the package check install on first use too: this lets CI start the
// download beside the tests, which use the CPU while it mostly waits on the network and disk.
import { cacheDir, ensureEngine, ensureTools } from './cache.ts';

const started = performance.now();
const steps = [...ensureEngine(), ensureTools()];
for (const step of steps) console.log(`${step.what}: ${step.reused ? 'cached' : `${step.seconds.toFixed(0)} s`}`);
console.log(`n8n engine and tools ready in ${cacheDir()} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
