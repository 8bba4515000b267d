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
  {
    row: 'create: 201 an id that is the key in base64',
    surface: 'Make',
    why: "Make's IML has no function that base64- or hex-encodes a part of a text, so the generated id search (write-answer-iml.ts, iml-key.ts `holdsKey`) finds the key as it is or URL-encoded, by its first or last 8 characters, but not as its bytes in base64 or hex, nor form-encoded: such an id is passed on",
  },
];
