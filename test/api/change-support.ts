import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import type { InputField, Operation, OperationId, OutputField } from '../../shared/operations/types.ts';
import { compareReports } from '../../scripts/api/classify.ts';
import type { Difference, SurfaceId, SurfaceReport } from '../../scripts/api/model.ts';
import { extractor as make } from '../../scripts/api/surfaces/make.ts';
import { extractor as mcp } from '../../scripts/api/surfaces/mcp.ts';
import { extractor as n8n } from '../../scripts/api/surfaces/n8n.ts';
import { extractor as zapier } from '../../scripts/api/surfaces/zapier.ts';

/**
 * Changes made to a COPY of the operations (the real ones stay as they are), as
 * test/new-operation.test.ts makes them, and what the check calls them on each surface.
 */

export const mine = [zapier, make, n8n, mcp] as const;

export async function reportsOf(list: readonly Operation[]): Promise<SurfaceReport[]> {
  return Promise.all(mine.map((extractor) => extractor.extract({ source: { operations: list, endpoints } })));
}

/** The differences a changed copy of the operations makes, per surface, against the real ones. */
export async function differencesAfter(list: readonly Operation[]): Promise<Record<SurfaceId, Difference[]>> {
  const [before, after] = await Promise.all([reportsOf(operations), reportsOf(list)]);
  const bySurface = {} as Record<SurfaceId, Difference[]>;
  before.forEach((report, index) => {
    bySurface[report.surface] = compareReports(report, after[index]!);
  });
  return bySurface;
}

/** The operations with one of them replaced by `change(it)`. */
export function changed(id: OperationId, change: (operation: Operation) => Operation | undefined): Operation[] {
  return operations.flatMap((operation) => {
    if (operation.id !== id) return [operation];
    const next = change(operation);
    return next ? [next] : [];
  });
}

export const withInputs = (operation: Operation, inputFields: readonly InputField[]) => ({ ...operation, inputFields }) as Operation;
export const withOutputs = (operation: Operation, outputFields: readonly OutputField[]) => ({ ...operation, outputFields }) as Operation;
export const mapInput = (operation: Operation, key: string, change: (field: InputField) => InputField) =>
  withInputs(
    operation,
    operation.inputFields.map((field) => (field.key === key ? change(field) : field)),
  );
