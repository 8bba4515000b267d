// `npm run make:check-schemas [folder]`: the Make app against Make's official schemas in ../shared/make-sdk-schemas, then Make's review conventions.
// With a folder (e.g. dist/make after `npm run build`) it checks the built files; without, the generator's output.
import { makeSchemasDir, missingBesideCheckout } from './beside-checkout.ts';
import { generateMakeApp } from '../generator/generate.ts';
import { filesOfFolder } from './built-folder.ts';
import { checkAgainstSchemas } from './check-against-schemas.ts';
import { conventionFindings } from './conventions.ts';

const missing = missingBesideCheckout([makeSchemasDir]);
if (missing) {
  console.error(missing);
  process.exit(2);
}
const folder = process.argv[2];
const app = folder ? filesOfFolder(folder) : generateMakeApp();
console.log(`Checking ${folder ? `the built app in ${folder}` : 'the generated app'}`);
const results = checkAgainstSchemas(makeSchemasDir, app);
let failed = 0;
for (const { path, schema, errors } of results) {
  if (!schema) continue;
  if (errors.length) failed += 1;
  console.log(`${errors.length ? 'FAIL' : 'ok  '} ${path} (${schema})${errors.map((e) => `\n       ${e}`).join('')}`);
}
const checked = results.filter((r) => r.schema).length;
const skipped = results.filter((r) => !r.schema).map((r) => r.path);
console.log(`\nMake schemas: ${checked - failed} of ${checked} files valid${skipped.length ? `; not governed by a schema: ${skipped.join(', ')}` : ''}`);
// Make's review conventions (conventions.ts): what the schemas cannot say.
const findings = conventionFindings(app);
for (const { rule, where, problem } of findings) console.log(`FAIL ${rule}: ${where}: ${problem}`);
console.log(`Make conventions: ${findings.length ? `${findings.length} finding(s)` : 'all kept'}`);
process.exit(failed || findings.length ? 1 : 0);
