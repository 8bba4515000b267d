import { ImlError } from '../../../../make-app/interpreter/iml/index.ts';

/** Runs `action`, which must throw an ImlError (anything else fails the test), and returns it. */
export function imlErrorOf(action: () => unknown): ImlError {
  try {
    action();
  } catch (error) {
    if (error instanceof ImlError) return error;
    throw error;
  }
  throw new Error('expected an ImlError, but nothing was thrown');
}
