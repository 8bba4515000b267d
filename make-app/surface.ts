import type { Surface } from '../surfaces/surface.ts';
import { generateMakeApp } from './generator/generate.ts';
import { makeHookEndpoints } from './hook-endpoints.ts';
import { makeName } from './operation-names.ts';
import { makeSteps } from './wording.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The Make custom app: the folder Make's VS Code editor opens, or `npm run make:deploy` uploads. */
export const makeSurface: Surface = {
  name: 'Make',
  nameColumn: 'Make name',
  steps: makeSteps,
  trigger: { hook: makeHookEndpoints },
  nameOf: (operation) => {
    const { name, label } = makeName(operation);
    return { names: [name], label };
  },
  generate: (source) => generateMakeApp(source),
  async build() {
    const { buildMakeApp } = await import('./build-make-app.ts');
    const make = buildMakeApp();
    return [
      `Make app: dist/make/ (${make.files} files, ${kb(make.bytes)}${make.keptOrigins ? `; kept the deploy link of ${make.keptOrigins} Make origin(s)` : ''}); check it with npm run make:check-schemas`,
    ];
  },
};
