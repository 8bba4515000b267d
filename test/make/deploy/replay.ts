import type { Loose } from '../../support/zapier-neutral-form.ts';
import { expect } from '@jest/globals';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nock from 'nock';
import { main } from '../../../make-app/deploy/main.ts';
import type { ReleaseCheck } from '../../../make-app/deploy/release-check.ts';

/**
 * Replay of Make's SDK-apps API for the deploy tests. Make is not reachable from here, so no
 * command records these: each recording was written by hand and lists, in order, the request
 * the deploy must send and the answer Make gives (shapes from @makehq/sdk's types and Make's
 * VS Code editor). `expectRecordedRequests` holds what the SDK actually sends to them, so they
 * cannot drift from the SDK. Every file that imports this must call offlineNock().
 */

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURE_APP = join(here, 'fixture-app');
export const ORIGIN = 'https://eu1.make.com';

/** A Make API key is a UUIDv4: the SDK then sends `authorization: Token <key>`. */
export const TOKEN = '0f3b5c7d-9e1f-4a2b-8c3d-5e7f9a1b3c5d';

export const ENV = {
  MAKE_API_TOKEN: TOKEN,
  MAKE_ZONE: 'eu1.make.com',
  MAKE_APP_NAME: 'pagerly-acme',
  MAKE_APP_LABEL: 'Pagerly',
  MAKE_APP_DESCRIPTION: 'Open incidents and follow who is on call in Pagerly.',
};

export interface RecordedCall {
  method: string;
  /** Path under https://eu1.make.com. */
  path: string;
  /** The request's content-type, when it has a body. */
  contentType?: string;
  /** A JSON request body. */
  body?: unknown;
  /** A request body that is exactly this file of the app folder, byte for byte. */
  bodyFile?: string;
  status: number;
  response: unknown;
}

export interface Recording {
  description: string;
  calls: RecordedCall[];
}

export const readRecording = (name: string): Recording => JSON.parse(readFileSync(join(here, 'recordings', `${name}.json`), 'utf8')) as Recording;

/** A request as nock saw it. */
export interface SentRequest {
  method: string;
  path: string;
  contentType: string | null;
  authorization: string | null;
  body: string;
}

/** Answers the recording's calls (each once) and collects what was sent, in order. */
export function replay(name: string): { sent: SentRequest[]; recording: Recording; scope: nock.Scope } {
  const recording = readRecording(name);
  const sent: SentRequest[] = [];
  const scope = nock(ORIGIN);
  for (const call of recording.calls) {
    scope.intercept(call.path, call.method).reply(call.status, call.response as nock.Body, { 'content-type': 'application/json' });
  }
  scope.on('request', (request: Request, _interceptor: unknown, body: string) => {
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname + url.search,
      contentType: request.headers.get('content-type'),
      authorization: request.headers.get('authorization'),
      body,
    });
  });
  return { sent, recording, scope };
}

/**
 * What the deploy sent is exactly the recording, in order: method, path, content type and
 * body (JSON compared as data, section files compared as text), each with the token header.
 */
export function expectRecordedRequests(sent: readonly SentRequest[], recording: Recording, appDir: string): void {
  const expected = recording.calls.map((call) => ({
    method: call.method,
    path: call.path,
    contentType: call.contentType ?? null,
    authorization: `Token ${TOKEN}`,
    body: call.bodyFile !== undefined ? readFileSync(join(appDir, call.bodyFile), 'utf8') : call.body === undefined ? '' : call.body,
  }));
  const actual = sent.map((request, index) => {
    const call = recording.calls[index];
    const asJson = call !== undefined && call.body !== undefined && request.body !== '';
    return { ...request, body: asJson ? (JSON.parse(request.body) as unknown) : request.body };
  });
  expect(actual).toEqual(expected);
}

/** A scratch copy of the fixture app (the deploy writes makecomapp.json back), with its origins file beside it. */
export function copyOfFixture(edit?: (manifest: Record<string, any>) => void): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'make-deploy-')), 'app');
  cpSync(FIXTURE_APP, dir, { recursive: true });
  if (edit) {
    const path = join(dir, 'makecomapp.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
    edit(manifest);
    writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return dir;
}

/** The origins file of a fixture copy: where the deploy keeps Make's names (make-app/origins.json in the repo). */
export const originsOf = (dir: string): string => join(dirname(dir), 'origins.json');

/** The arguments that deploy a fixture copy, keeping its origins beside it. */
export const deployArgs = (dir: string, ...more: string[]): string[] => ['--app-dir', dir, '--origins', originsOf(dir), ...more];

export const readOrigins = (dir: string): [Loose, ...Loose[]] => JSON.parse(readFileSync(originsOf(dir), 'utf8')) as [Loose, ...Loose[]];

export const readManifest = (dir: string): Record<string, any> => JSON.parse(readFileSync(join(dir, 'makecomapp.json'), 'utf8')) as Record<string, any>;

/** The released interface, unchanged: what the deploy tests that are not about it see. */
export const nothingSinceRelease: ReleaseCheck = async () => ({ releasedVersion: '0.1.0', version: '0.1.0', differences: [] });

/** Runs the CLI in-process, collecting its output. */
export async function runDeploy(
  argv: string[],
  env: Record<string, string | undefined> = ENV,
  release: ReleaseCheck = nothingSinceRelease,
): Promise<{ code: number; out: string[]; err: string[]; all: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env, { out: (line) => out.push(line), err: (line) => err.push(line) }, release);
  return { code, out, err, all: [...out, ...err].join('\n') };
}

export { unmatchedRequests } from '../../support/offline-nock.ts';
