import { isPagerlyError, InvalidInputError, RateLimitError } from '../shared/errors.ts';
import { redact } from '../shared/redact.ts';
import { showControlsInJson } from '../shared/visible-controls.ts';
import { CliError, InvalidFileError } from './cli-errors.ts';
import { describeRowProblem } from '../shared/directory-sync/row-problem.ts';
import { paintFor, type Paint } from './colour.ts';
import { exitCodeFor } from './exit-codes.ts';
import type { AnyErrorCode } from './exit-table.ts';
import type { JsonCommand, JsonDocuments, JsonError } from './json-documents.ts';
import type { OutStream } from './out-stream.ts';
import { forTerminal } from './terminal-text.ts';

export type { JsonError };

/**
 * Human or machine output, one place. Human: short aligned text on stdout, notes and
 * errors on stderr. `--json`: exactly one JSON document on stdout, errors as one JSON
 * document on stderr, no notes. Every text goes through `redact`, so the API key cannot
 * appear in any output, whatever produced the text. Every human line, note and error goes
 * through `forTerminal` (terminal-text.ts) before any colour is added, so nothing the
 * service sent can reach the terminal as a control sequence or a line of its own, on a
 * terminal or a pipe alike. A `--json` document holds the text as it came, each control JSON
 * does not escape itself (DEL, C1, bidi, zero-width) written as a `\uXXXX` escape
 * (shared/visible-controls.ts): the same value to a program, nothing applied on a terminal.
 */
export class Output {
  readonly json: boolean;
  private readonly secrets: readonly string[];
  private readonly stdout: OutStream;
  private readonly stderr: OutStream;
  /** Colours for stderr's messages (see colour.ts); plain text when off. */
  readonly paint: Paint;

  constructor(io: { stdout: OutStream; stderr: OutStream }, options: { json: boolean; secrets: readonly string[]; colour?: boolean }) {
    this.stdout = io.stdout;
    this.stderr = io.stderr;
    this.json = options.json;
    this.secrets = options.secrets;
    this.paint = paintFor(!options.json && (options.colour ?? false));
  }

  private clean(text: string): string {
    return redact(text, this.secrets);
  }

  /** A `--json` document: redacted as it is written, then its controls shown as JSON escapes. */
  private document(value: unknown): string {
    return `${showControlsInJson(this.clean(JSON.stringify(value, null, 2)))}\n`;
  }

  /** Raw writes, redacted: for commander's help and messages. */
  writeOut(text: string): void {
    this.stdout.write(this.clean(text));
  }

  writeErr(text: string): void {
    this.stderr.write(this.clean(text));
  }

  /**
   * The command's result: `value` as JSON, or the human text on stdout, one line per element
   * (a newline inside one, from a name, is shown as `\n`, never a line of its own). The
   * command's path picks the document's declared shape (json-documents.ts).
   */
  result<C extends JsonCommand>(_command: C, value: JsonDocuments[C], human: () => string | readonly string[]): void {
    if (this.json) {
      this.writeOut(this.document(value));
      return;
    }
    const text = human();
    const lines = typeof text === 'string' ? [text] : text;
    if (lines.length > 0) this.writeOut(`${lines.map(forTerminal).join('\n')}\n`);
  }

  /** A remark for a person (what was done, a hint) on stderr, one line; none with --json. */
  note(text: string): void {
    if (!this.json) this.writeErr(`${forTerminal(text)}\n`);
  }

  /**
   * A stream for the progress bar: stderr, redacted, with stderr's width. A terminal only when
   * both stdout and stderr are: with the report going to a file or a pipe, nobody watches a bar.
   */
  progressStream(): OutStream {
    return { write: (text: string) => this.writeErr(text), isTTY: Boolean(this.stderr.isTTY && this.stdout.isTTY), columns: this.stderr.columns };
  }

  error(error: unknown): void {
    if (this.json) {
      // Every command's error document, or, for a command with codes of its own, its own (JsonCommandErrorDocuments).
      const document: { error: JsonError<AnyErrorCode> } = { error: jsonError(error) };
      this.writeErr(this.document(document));
      return;
    }
    this.writeErr(`${humanError(error).replace(/^error:/, this.paint(['bold', 'red'], 'error:'))}\n`);
  }
}

export function jsonError(error: unknown): JsonError<AnyErrorCode> {
  const exitCode = exitCodeFor(error);
  if (error instanceof InvalidFileError) {
    return {
      code: error.code,
      message: error.message,
      retryable: false,
      exitCode,
      problems: error.problems.map((p) => ({ ...(p.row === undefined ? {} : { row: p.row }), ...(p.field ? { field: p.field } : {}), problem: p.problem })),
    };
  }
  if (error instanceof CliError) return { code: error.code, message: error.message, retryable: error.retryable, exitCode };
  if (isPagerlyError(error)) {
    return {
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      exitCode,
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.endpoint === undefined ? {} : { endpoint: error.endpoint }),
      ...(error instanceof RateLimitError && error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
      ...(error instanceof InvalidInputError ? { problems: error.problems.map((p) => ({ ...(p.field ? { field: p.field } : {}), problem: p.problem })) } : {}),
    };
  }
  return { code: 'unexpected', message: `Unexpected error: ${messageOf(error)}`, retryable: false, exitCode };
}

/**
 * `error: <what happened>`, plus what to do when that is not already in the message. Each
 * line is made safe for a terminal (the message quotes the service's text).
 */
export function humanError(error: unknown): string {
  if (error instanceof InvalidFileError) {
    return [`error: ${forTerminal(error.message)}`, ...error.problems.map((p) => `  ${forTerminal(describeRowProblem(p))}`)].join('\n');
  }
  if (error instanceof CliError || isPagerlyError(error)) {
    const retry = error.retryable ? ' (temporary: safe to retry)' : '';
    return `error: ${forTerminal(error.message)}${retry}`;
  }
  return `error: unexpected: ${forTerminal(messageOf(error))}`;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Rows as aligned columns: every column but the last padded to its widest cell, trailing
 * spaces trimmed. Cells are made safe for a terminal first, so the escapes count in the widths.
 */
export function columns(table: readonly (readonly string[])[], { indent = '', gap = '  ' } = {}): string[] {
  const rows = table.map((row) => row.map(forTerminal));
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) => `${indent}${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join(gap)}`.trimEnd());
}
