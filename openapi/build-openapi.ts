import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpoints } from '../shared/catalog/endpoints.ts';
import { operations } from '../shared/operations/index.ts';
import { DOCUMENT_JSON, generateOpenApi } from './generate.ts';
import type { Json } from './generator/document.ts';
import { postmanCollection } from './postman.ts';

/** Where `npm run build` writes the document and its Postman collection. */
export const openApiDir = fileURLToPath(new URL('../dist/openapi/', import.meta.url));
export const COLLECTION = 'pagerly.postman_collection.json';

const text = (content: unknown) => (typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);

/** Writes the document (JSON, YAML) and the Postman collection made from it into `folder`. */
export async function buildOpenApi(folder = openApiDir): Promise<{ operations: number; webhooks: number; requests: number }> {
  const files = new Map(generateOpenApi({ operations, endpoints }));
  const document = files.get(DOCUMENT_JSON) as Json;
  const collection = await postmanCollection(document);
  files.set(COLLECTION, collection);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  for (const [path, content] of files) writeFileSync(`${folder}/${path}`, text(content));
  const count = (items: { item?: unknown[] }[]): number => items.reduce((sum, item) => sum + (item.item ? count(item.item as { item?: unknown[] }[]) : 1), 0);
  return {
    operations: Object.values(document['paths'] as Record<string, object>).reduce((sum, item) => sum + Object.keys(item).length, 0),
    webhooks: Object.keys((document['webhooks'] ?? {}) as object).length,
    requests: count(collection['item'] as { item?: unknown[] }[]),
  };
}
