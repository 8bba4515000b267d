import type { GeneratedFiles, Surface } from '../surfaces/surface.ts';
import { clientName, clientSteps, operationsPage } from './operation-names.ts';

/**
 * The typed client package (@pagerly/client): one method per catalog endpoint, made at run time
 * from the catalog, so `generate` is the page that lists each operation as the calls it makes,
 * which the package carries (OPERATIONS.md). No trigger: a client answers calls and has no URL
 * to be called on.
 */
export const clientSurface: Surface = {
  name: 'Client',
  nameColumn: 'Client method',
  steps: clientSteps,
  nameOf: (operation) => clientName(operation),
  generate: (source): GeneratedFiles => new Map([['OPERATIONS.md', operationsPage(source)]]),
  async build() {
    const { clientPackage } = await import('./npm-package.ts');
    return [await clientPackage.build()];
  },
};
