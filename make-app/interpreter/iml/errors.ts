/**
 * The one error the evaluator raises. Anything outside the supported IML subset, and any
 * value an operator or function cannot handle, ends here: we would rather fail loudly in
 * our tests than guess what Make's private engine does.
 */
export class ImlError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ImlError';
  }
}

/** An ImlError that says where: `<what> at column N in "{{source}}"` (column is 1-based). */
export function imlErrorAt(what: string, source: string, offset: number): ImlError {
  return new ImlError(`${what} at column ${offset + 1} in "{{${source}}}"`);
}

/**
 * Raised by value helpers and functions, which do not know the expression they run in.
 * The evaluator catches it at the node that called them and turns it into a located
 * ImlError, so it never leaves this folder.
 */
export class ValueProblem extends Error {}
