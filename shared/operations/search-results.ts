import { NotFoundError } from '../errors.ts';
import { shapeItem } from './item-shape.ts';
import type { SearchOperation } from './types.ts';

/** An empty success body (read as `{}`) found nothing. */
const isEmptyObject = (value: unknown) => value !== null && typeof value === 'object' && Object.keys(value).length === 0;

/**
 * A search's results from its endpoint's answer, as every platform shows them: one item per
 * element (or the one entry), shaped by the description; "not found" is no result when the
 * description says so. `call` sends the request; errors other than that not-found pass through.
 */
export async function searchResults(operation: SearchOperation, call: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  let body: unknown;
  try {
    body = await call();
  } catch (error) {
    if (operation.notFoundIsEmpty && error instanceof NotFoundError) return [];
    throw error;
  }
  const elements = operation.results === 'each-element' ? (Array.isArray(body) ? body : []) : isEmptyObject(body) ? [] : [body];
  return elements.map((item) => shapeItem(operation.item, { body, item }));
}
