/**
 * Rows a surface does not meet yet, each with the reason: conformance.test.ts runs them and
 * expects them to fail, and reports them by name, so a fix shows (the entry must then go) and
 * a failure is never hidden by weakening its row.
 */
export interface KnownFailure {
  readonly row: string;
  readonly surface: string;
  readonly why: string;
}

export const KNOWN_FAILURES: readonly KnownFailure[] = [
  ...['create: 200 {}', 'create: 201 with an empty body'].map((row) => ({
    row,
    surface: 'typed client',
    why: "the typed client's createOrUpdateIncident returns the answer as it came ({}): the id rule (MissingIdError) is applied by the shared actionResult and the CLI's incident command, not by the client's endpoint methods",
  })),
];
