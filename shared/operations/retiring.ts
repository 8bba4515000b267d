import type { Operation, OperationId, Retiring } from './types.ts';

/**
 * The one rule of retiring an operation, which every surface applies in its platform's way:
 * what users already built keeps running, nothing new is offered it, and it says what to use.
 *
 * - Zapier: `display.hidden: true` (kept for existing Zaps, gone from the editor's list);
 * - n8n: a new node version that no longer offers it, the old version kept for saved workflows
 *   (n8n-app/generator/versions.ts; a whole node, the trigger, is `hidden` from the nodes panel);
 * - Make: the module kept, its label and description saying it is deprecated and what to use
 *   (Make has no way for a custom app to hide a module that scenarios use);
 * - MCP: the tool kept, its description opening with the note;
 * - CLI: the command kept, left out of help, the note on stderr when it runs (cli/operation-commands.ts).
 * The OpenAPI document describes the service's endpoints, which stay: retiring a connector
 * operation does not deprecate one.
 *
 * It is removed only in a major version: the API check (`npm run api:check`) calls becoming
 * hidden compatible and the removal of a hidden item breaking unless the major went up.
 */

/** A release's version as package.json has it, `major.minor.patch` (a pre-release tag allowed). */
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;

export const isRetiring = (operation: Pick<Operation, 'retiring'>): operation is { retiring: Retiring } => operation.retiring !== undefined;

/**
 * What every surface says of a retiring operation, with the operation to use instead named by
 * `nameOf` in the surface's own words (a Zap step's label, a Make module's, a tool's name, a
 * command); undefined for an operation that is not retiring.
 */
export function retiringNote(operation: Pick<Operation, 'retiring'>, nameOf: (id: OperationId) => string): string | undefined {
  if (!operation.retiring) return undefined;
  const { since, use } = operation.retiring;
  const instead = use ? ` Use ${nameOf(use)} instead.` : '';
  return `Deprecated since version ${since}: it keeps working where it is already used, and will be removed in a future major version.${instead}`;
}

/**
 * What is wrong with the retiring operations of a list, in words a maintainer can act on: a
 * `since` that is no version or is later than the version being built, a replacement that does
 * not exist or is itself retiring. Empty when all is well (test/shared/retiring.test.ts holds the shipped operations to it).
 */
export function retiringProblems(operations: readonly Operation[], currentVersion: string): string[] {
  const problems: string[] = [];
  const byId = new Map(operations.map((operation) => [operation.id, operation]));
  for (const operation of operations) {
    if (!operation.retiring) continue;
    const { since, use } = operation.retiring;
    if (!VERSION.test(since)) problems.push(`${operation.id}: retiring.since "${since}" is not a version such as 1.4.0.`);
    else if (compareVersions(since, currentVersion) > 0) {
      problems.push(`${operation.id}: retiring.since ${since} is later than the version being built (${currentVersion}).`);
    }
    if (operation.kind === 'list') problems.push(`${operation.id}: a list of choices is no step a user picks; it cannot be retired.`);
    if (use === undefined) continue;
    const replacement = byId.get(use);
    if (!replacement) problems.push(`${operation.id}: retiring.use names "${use}", which is not an operation.`);
    else if (replacement.retiring) problems.push(`${operation.id}: retiring.use names ${use}, which is retiring too.`);
    else if (use === operation.id) problems.push(`${operation.id}: retiring.use names the operation itself.`);
  }
  return problems;
}

/** Orders two `major.minor.patch` versions (pre-release tags are ignored: a release is named by its numbers). */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split('-')[0]!.split('.').map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let at = 0; at < 3; at++) {
    const difference = (x[at] ?? 0) - (y[at] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
