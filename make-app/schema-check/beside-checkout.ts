import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The folder beside this checkout that CI provides (`../shared`): the API spec and Make's
 * official JSON Schemas. Never copied into the repository; the tests and
 * `npm run make:check-schemas` read them from there.
 */
export const besideCheckout = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const specFile = `${besideCheckout}spec/automation-api.md`;
export const makeSchemasDir = `${besideCheckout}make-sdk-schemas/`;

/** One line that says what is missing and where it should be, or undefined when all is there. */
export function missingBesideCheckout(needed: readonly string[] = [specFile, makeSchemasDir]): string | undefined {
  const missing = needed.filter((path) => !existsSync(path));
  if (missing.length === 0) return undefined;
  return `Missing ${missing.join(' and ')}: this project reads the API spec and Make's official schemas from the shared/ folder beside the checkout (${besideCheckout}), as CI provides it. Put that folder there and run the command again.`;
}
