import { ON_CALL_BY_TEAM_ENDPOINTS } from '../shared/on-call/by-team.ts';
import type { Surface } from '../surfaces/surface.ts';
import { generateN8nPackage } from './generator/generate.ts';
import { n8nSteps } from './generator/wording.ts';
import { n8nName } from './operation-names.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The n8n community-node package. Its nodes run n8n-app/runtime/ (bundled into the package),
 * which calls the real catalog, so a catalog copy changes nothing here.
 */
export const n8nSurface: Surface = {
  name: 'n8n',
  nameColumn: 'n8n resource/operation',
  steps: n8nSteps,
  // The service documents no hook path for n8n: its trigger polls the team list and each team's on-call people.
  trigger: { poll: ON_CALL_BY_TEAM_ENDPOINTS },
  nameOf: (operation) => {
    const name = n8nName(operation);
    if ('resource' in name) return { names: [name.resource, name.operation], label: name.action };
    if ('trigger' in name) return { names: [name.trigger], label: name.label };
    return { names: [name.listSearchMethod] };
  },
  generate: ({ operations }) => generateN8nPackage(operations),
  async build() {
    const { buildN8nApp } = await import('./build-n8n-app.ts');
    const n8n = await buildN8nApp();
    return [
      `n8n package: dist/n8n/ (${n8n.files} files, ${kb(n8n.bytes)}; bundles ${Object.values(n8n.bundles).map(kb).join(', ')}); check it with npm run n8n:check`,
    ];
  },
};
