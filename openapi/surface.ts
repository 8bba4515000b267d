import { callsOf } from '../shared/operations/calls.ts';
import type { Surface } from '../surfaces/surface.ts';
import { openApiSteps, operationLabel } from './generator/document.ts';
import { generateOpenApi } from './generate.ts';

/**
 * The OpenAPI 3.1 document of the catalog (and the Postman collection made from it): a
 * description of the service, not an app, so it has no runtime of its own and no trigger to
 * subscribe; newman runs its collection against the sandbox instead (test/openapi/).
 */
export const openApiSurface: Surface = {
  name: 'OpenAPI',
  nameColumn: 'OpenAPI operationId',
  steps: openApiSteps,
  describesOnly: { provenBy: 'test/openapi/contract.test.ts: its Postman collection, run by newman against the sandbox' },
  // Its names are the operationIds it calls (catalog keys; a hook is the webhook of its own id); its
  // label is how each endpoint's description lists the operations that call it.
  nameOf: (operation) => ({ names: operation.kind === 'hook' ? [operation.id] : callsOf(operation), label: operationLabel(operation) }),
  generate: (source) => generateOpenApi(source),
  async build() {
    const { buildOpenApi } = await import('./build-openapi.ts');
    const built = await buildOpenApi();
    return [
      `OpenAPI document: dist/openapi/openapi.json and .yaml (${built.operations} operations, ${built.webhooks} webhook(s)); Postman collection dist/openapi/pagerly.postman_collection.json (${built.requests} requests, each with tests)`,
    ];
  },
};
