import { createRequire } from 'node:module';

/**
 * The built Zapier app (dist/zapier/index.js, the bundle in the upload zip) run by
 * zapier-platform-core's own handler, as `zapier-platform invoke` runs it locally.
 */
export function loadBuiltZapierApp(bundlePath: string) {
  const require = createRequire(import.meta.url);
  const app = require(bundlePath) as Record<string, unknown>;
  // Exported by core at runtime but missing from its type declarations.
  const { createAppHandler } = require('zapier-platform-core') as { createAppHandler: (app: object) => (event: object) => Promise<{ results: unknown }> };
  const handler = createAppHandler(app);
  return {
    app,
    /** `method` is the definition path, e.g. `creates.create_incident.operation.perform`. */
    // biome-ignore lint/suspicious/noExplicitAny: each step reads the fields of its own operation's result
    async run(method: string, bundle: Record<string, unknown>): Promise<any> {
      const response = await handler({ command: 'execute', method, bundle, calledFromCli: true });
      return response.results;
    },
  };
}
export type ZapierRuntime = ReturnType<typeof loadBuiltZapierApp>;
