import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';

/**
 * For secret tests: everything a piece of code printed, logged, returned, threw or wrote,
 * gathered as named texts ("places"), so one assertion can say which place holds a key.
 */
export class LeakWatch {
  private readonly places: { place: string; text: string }[] = [];

  /** Adds one text under a name. */
  text(place: string, text: string): void {
    this.places.push({ place, text });
  }

  /**
   * Adds a value in every form a caller could see it: for an error its message, stack,
   * `String()`, `JSON.stringify` and a full `util.inspect` (own properties, causes); for anything
   * else its JSON and `util.inspect`.
   */
  value(place: string, value: unknown): void {
    if (value instanceof Error || (value !== null && typeof value === 'object' && 'message' in value && 'stack' in value)) {
      const error = value as Error;
      this.text(`${place} (message)`, String(error.message));
      this.text(`${place} (stack)`, String(error.stack));
      this.text(`${place} (String)`, String(error));
      this.text(`${place} (JSON)`, safeJson(error));
      this.text(`${place} (inspect)`, inspect(error, { depth: null, showHidden: true }));
      return;
    }
    this.text(`${place} (JSON)`, safeJson(value));
    this.text(`${place} (inspect)`, inspect(value, { depth: null }));
  }

  /** Every file under a folder (recursively), by name and content. */
  files(place: string, folder: string): string[] {
    const found = listFiles(folder);
    for (const file of found) {
      this.text(`${place}: ${file.slice(folder.length)} (name)`, file);
      this.text(`${place}: ${file.slice(folder.length)}`, readFileSync(file, 'latin1'));
    }
    return found;
  }

  get size(): number {
    return this.places.length;
  }

  /** The names of the places that hold a secret, or a recognisable piece of one (see `fragments`). */
  leaks(secrets: readonly string[]): string[] {
    const needles = secrets.flatMap(fragments);
    return this.places.filter(({ text }) => needles.some((needle) => text.includes(needle))).map(({ place }) => place);
  }
}

/**
 * The pieces of a key that count as a leak: the key, and its first and last 8 characters (a
 * truncated echo), each as is, JSON-escaped (a `"` or `\` in it escaped), URL-encoded and
 * form-encoded. Written here on its own, not taken from shared/redact.ts, so that the
 * secret tests do not grade the redaction with its own answer.
 */
export function fragments(secret: string): string[] {
  const forms = (text: string) => {
    const url = encodeURIComponent(text);
    return [text, JSON.stringify(text).slice(1, -1), url, url.replaceAll('%20', '+'), new URLSearchParams([['k', text]]).toString().slice(2)];
  };
  return [...new Set([secret, secret.slice(0, 8), secret.slice(-8)].flatMap(forms))];
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch (error) {
    return `<not JSON: ${(error as Error).message}>`;
  }
}

function listFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    const stat = statSync(path);
    return stat.isDirectory() ? listFiles(path) : [path];
  });
}

type Writer = (chunk: unknown, ...rest: unknown[]) => boolean;
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir'] as const;

/**
 * Records everything written to process.stdout / process.stderr (passed through) and every
 * console call (swallowed: core's logger prints whole request logs), until `stop()`.
 */
export function captureOutput(): { readonly text: string; stop(): void } {
  const chunks: string[] = [];
  const streams = [process.stdout, process.stderr];
  const savedWrites = streams.map((stream) => stream.write);
  const savedConsole = CONSOLE_METHODS.map((name) => console[name]);
  streams.forEach((stream, index) => {
    const original = savedWrites[index] as unknown as Writer;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
      return original.call(stream, chunk, ...rest);
    }) as typeof stream.write;
  });
  for (const name of CONSOLE_METHODS) {
    console[name] = (...args: unknown[]) => {
      chunks.push(args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: null }))).join(' '));
    };
  }
  return {
    get text() {
      return chunks.join('\n');
    },
    stop() {
      streams.forEach((stream, index) => {
        stream.write = savedWrites[index]!;
      });
      CONSOLE_METHODS.forEach((name, index) => {
        (console as unknown as Record<string, unknown>)[name] = savedConsole[index];
      });
    },
  };
}

/**
 * A fresh folder that `os.tmpdir()` answers while the test runs (TMPDIR), so that anything
 * the code under test writes to temporary files lands where the test can read it.
 */
export function tempDirAsTmp(): { readonly dir: string; restore(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pagerly-leak-watch-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return {
    dir,
    restore() {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
