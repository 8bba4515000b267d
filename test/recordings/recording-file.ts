import { readdirSync, readFileSync } from 'node:fs';
import type nock from 'nock';
type Definition = nock.Definition;
import type { Fixture } from './scenarios.ts';

/** One scenario's recording, as `npm run record` writes it next to this file. */
export interface RecordingFile {
  scenario: string;
  recordedFrom: 'sandbox' | 'live';
  fixture: Fixture;
  interactions: Definition[];
}

export const recordingsDir = new URL('./', import.meta.url);
export const CANONICAL_ORIGIN = 'https://api.pagerly.io';
/** Response headers worth keeping: the rest (dates, connection) only make re-recordings differ. */
export const KEPT_HEADERS = ['content-type', 'retry-after'];

export const recordingPath = (scenario: string) => new URL(`${scenario}.json`, recordingsDir);

export function readRecording(scenario: string): RecordingFile {
  return JSON.parse(readFileSync(recordingPath(scenario), 'utf8')) as RecordingFile;
}

export function recordingNames(): string[] {
  return readdirSync(recordingsDir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
}
