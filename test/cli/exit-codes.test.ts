import { describe, expect, it } from '@jest/globals';
import { EXIT, exitCodeFor, exitCodeTable, mostSevereExitCode } from '../../cli/exit-codes.ts';
import { HostNotFoundError, NetworkError, RateLimitError, RedirectError, ServerError, TimeoutError } from '../../shared/errors.ts';

/**
 * The exit code follows the shared error model (`retryable`, `mayHaveApplied`), never the
 * class name alone: 75 only where a retry can neither do the work twice nor fail the same way.
 */
describe('exit codes from the error model', () => {
  it('a failure that may have been applied is 5, whatever its class', () => {
    for (const error of [
      new ServerError('x', { status: 500, mayHaveApplied: true }),
      new TimeoutError('x', { mayHaveApplied: true }),
      new NetworkError('x', { mayHaveApplied: true }),
    ]) {
      expect({ retryable: error.retryable, code: exitCodeFor(error) }).toEqual({ retryable: false, code: EXIT.mayHaveApplied });
    }
  });

  it('the same classes when nothing can have been done are 75', () => {
    for (const error of [new ServerError('x', { status: 503 }), new TimeoutError('x'), new NetworkError('x'), new RateLimitError('x', 3)]) {
      expect({ retryable: error.retryable, code: exitCodeFor(error) }).toEqual({ retryable: true, code: EXIT.transient });
    }
  });

  it('a host that does not exist and a redirect elsewhere are configuration errors: 78', () => {
    expect(exitCodeFor(new HostNotFoundError('x'))).toBe(78);
    expect(exitCodeFor(new RedirectError('x', 'elsewhere.example', { status: 302 }))).toBe(78);
  });

  it('several failures: 3, 4, 78, 5, 75, 1; one row that may have been done outranks the temporary ones', () => {
    const maybe = new ServerError('x', { status: 500, mayHaveApplied: true });
    expect(mostSevereExitCode([new ServerError('x'), maybe, new Error('bug')])).toBe(5);
    expect(mostSevereExitCode([maybe, new HostNotFoundError('x')])).toBe(78);
  });

  it('every code has a line in the table --help and docs/cli.md show', () => {
    expect(exitCodeTable.map(({ code }) => code)).toEqual(Object.values(EXIT));
  });
});
