import type { z } from 'zod';

export interface FieldProblem {
  /** Dotted path of the field, e.g. `phone` or `team.name`; empty for the whole input. */
  readonly field: string;
  readonly problem: string;
}

/** Zod issues as field/problem pairs a person can act on. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    return { field, problem: plainWords(issue) };
  });
}

/** Zod's default type message ("Invalid input: expected string, received number") in plain words. */
function plainWords(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_type') return issue.message;
  const received = /received (\w+)/.exec(issue.message)?.[1];
  if (received === 'undefined') return 'is required';
  const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
  return received ? `must be ${article(issue.expected)}, not ${article(received)}` : issue.message;
}

/** One sentence, e.g. "phone must be in international format ...; email is required". */
export function describeProblems(problems: readonly FieldProblem[]): string {
  return problems.map(({ field, problem }) => (field ? `${field} ${problem}` : problem)).join('; ');
}

/** Parse or return the problems, never throw: the caller decides which error to raise. */
export function check<S extends z.ZodType>(schema: S, value: unknown):
  | { ok: true; value: z.output<S> }
  | { ok: false; problems: FieldProblem[] } {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, problems: fieldProblems(result.error) };
}
