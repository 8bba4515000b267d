// `npm run build`: every registered surface into dist/: the Zapier upload zip (dist/zapier/build/build.zip), the Make app (dist/make/), the n8n package (dist/n8n/), the OpenAPI document and Postman collection (dist/openapi/), the GitHub Action (dist/action/); then the npm packages: the CLI (dist/cli/), the typed client (dist/client/) and the sandbox (dist/sandbox/).
import { npmPackages } from '../packaging/packages.ts';
import { surfaces } from './surfaces.ts';

const started = Date.now();
for (const surface of surfaces) for (const line of await surface.build()) console.log(line);
for (const pkg of npmPackages) console.log(await pkg.build());
console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
