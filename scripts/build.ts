// `npm run build`: the Zapier upload zip (dist/zapier/build/build.zip), the Make app (dist/make/) and the n8n package (dist/n8n/).
import { buildMakeApp } from '../make-app/build-make-app.ts';
import { buildZapierApp } from '../zapier-app/packaging/build-zapier-app.ts';
import { buildN8nApp } from '../n8n-app/build-n8n-app.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const started = Date.now();

const zapier = await buildZapierApp();
const { zip } = zapier;
console.log(`Zapier app ${zip.loaded.version}: dist/zapier/build/build.zip`);
console.log(`  bundle index.js ${kb(zapier.bundleBytes)}; zip ${kb(zip.bytes)}, ${zip.files} files`);
console.log(`  our files: ${zip.ownFiles.join(', ')}`);
console.log(`  packages: ${zip.packages.length} (${zip.packages.join(', ')})`);
console.log(`  loads: triggers ${zip.loaded.triggers.join(', ')}; creates ${zip.loaded.creates.join(', ')}; searches ${zip.loaded.searches.join(', ')}`);
console.log(
  `  validate --without-style: ${zapier.validation.split('\n').pop()}${zapier.reused ? ' (inputs unchanged since the last build: its zip was kept)' : ''}`,
);
for (const note of zapier.kept) console.log(`  kept your file: ${note}`);

const make = buildMakeApp();
console.log(
  `Make app: dist/make/ (${make.files} files, ${kb(make.bytes)}${make.keptOrigins ? `; kept the deploy link of ${make.keptOrigins} Make origin(s)` : ''}); check it with npm run make:check-schemas`,
);
const n8n = await buildN8nApp();
console.log(
  `n8n package: dist/n8n/ (${n8n.files} files, ${kb(n8n.bytes)}; bundles ${Object.values(n8n.bundles).map(kb).join(', ')}); check it with npm run n8n:check`,
);
console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
