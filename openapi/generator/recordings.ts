import { readdirSync, readFileSync } from 'node:fs';

/** One request and answer as `npm run record` keeps it (nock's recorder format). */
export interface RecordedInteraction {
  readonly scope: string;
  readonly method: string;
  /** The path with its query string, as sent. */
  readonly path: string;
  readonly body?: unknown;
  readonly status: number;
  readonly response?: unknown;
}

export interface Recording {
  readonly scenario: string;
  readonly interactions: readonly RecordedInteraction[];
}

/** Where `npm run record` writes the recordings the client's tests replay. */
export const recordingsDir = new URL('../../test/recordings/', import.meta.url);

/** Every recording, by scenario name: the document's examples are what the service (or the sandbox) really answered. */
export function readRecordings(dir: URL = recordingsDir): Recording[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as Recording);
}
