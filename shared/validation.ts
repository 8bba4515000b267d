import * as z from 'zod/mini';

export interface FieldProblem {
  /** Dotted path of the field, e.g. `phone` or `team.name`; empty for the whole input. */
  readonly field: string;
  readonly problem: string;
}

/** Zod issues as field/problem pairs a person can act on; `input` is what was checked. */
export function fieldProblems(error: z.core.$ZodError, input?: unknown): FieldProblem[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), problem: plainWords(issue, input) }));
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Our schemas carry their own words for every check; what is left is a missing field or a
 * value of the wrong type, told from the value itself (zod/mini has no message catalogue).
 */
function plainWords(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code !== 'invalid_type') return issue.message;
  const actual = valueAt(input, issue.path);
  if (actual === undefined) return 'is required';
  return `must be ${article(issue.expected)}, not ${article(kindOf(actual))}`;
}

/** One sentence, e.g. "phone must be in international format ...; email is required". */
export function describeProblems(problems: readonly FieldProblem[]): string {
  return problems.map(({ field, problem }) => (field ? `${field} ${problem}` : problem)).join('; ');
}

/** Parse or return the problems, never throw: the caller decides which error to raise. Takes any zod schema (mini or classic). */
export function check<S extends z.core.$ZodType>(schema: S, value: unknown): { ok: true; value: z.output<S> } | { ok: false; problems: FieldProblem[] } {
  const result = z.safeParse(schema, value);
  return result.success ? { ok: true, value: result.data } : { ok: false, problems: fieldProblems(result.error, value) };
}
