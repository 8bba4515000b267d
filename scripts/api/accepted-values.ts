import type { Endpoint } from '../../shared/catalog/endpoint.ts';
import { wireSchema } from '../../openapi/generator/document.ts';
import type { Fact } from './model.ts';
import { schemaPaths } from './schema-paths.ts';

/**
 * What the runtime accepts for each top-level key of an endpoint's input: the enum values
 * (`accepts`) and the limits of its schema. The shared client checks every input against that
 * schema before sending (shared/http/request.ts `checkInput`), on every surface that runs it
 * (Zapier, n8n, the CLI, the Actions, MCP): a value the schema refuses never leaves, whatever
 * the platform's field shows. So a surface whose own field says "any text" still refuses what
 * the schema narrows, and its report says so here.
 */
export type Accepted = Readonly<Record<string, Fact | undefined>>;

const known = new WeakMap<Endpoint, ReadonlyMap<string, Accepted>>();

export function acceptedValues(endpoint: Endpoint | undefined): ReadonlyMap<string, Accepted> {
  if (!endpoint) return new Map();
  const cached = known.get(endpoint);
  if (cached) return cached;
  const accepted = new Map<string, Accepted>();
  known.set(endpoint, accepted);
  for (const entry of schemaPaths(wireSchema(endpoint.input, 'input'), () => ({}), true)) {
    if (!entry.path || entry.path.includes('.') || entry.path.includes('[]')) continue;
    accepted.set(entry.path, {
      accepts: entry.choices,
      pattern: entry.pattern,
      minLength: entry.minLength,
      maxLength: entry.maxLength,
      minimum: entry.minimum,
      maximum: entry.maximum,
    });
  }
  return accepted;
}
