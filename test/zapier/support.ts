import { expect } from '@jest/globals';
import zapier, { type Bundle, type ZObject } from 'zapier-platform-core';
import App from '../../zapier-app/index.ts';
import { isolateZapierCore } from '../support/zapier-core-isolation.ts';

// No nock here: importing nock switches it on, and a file that does must restore it (offlineNock).
// The replay helpers are in ./replay.ts.

// Every file that imports the app tester keeps core's global HTTP patch to itself.
isolateZapierCore();

/** A recognisable key: any error, label or log line that holds it (or most of it) is a leak. */
export const KEY = 'zapier-test-key-7f3a91c2';
export const authData = { apiKey: KEY };

export { App };
export const appTester = zapier.createAppTester(App);

type Perform = (z: ZObject, bundle: Bundle) => unknown;
type Kind = 'creates' | 'searches';

/** A create's or search's perform, found by its public key (fails the test when the key is missing). */
export function performOf(kind: Kind, key: string): Perform {
  const perform = App[kind][key]?.operation.perform;
  // Core's type also allows a request object; the app's creates and searches are all functions.
  if (typeof perform !== 'function') throw new Error(`The Zapier app has no ${kind}.${key} with a perform function`);
  return perform;
}

// ---------------------------------------------------------------------------------------------
// Zapier's errors

/**
 * What a failed call gave Zapier. AppError's and ThrottledError's message is JSON
 * (`{message, code, status}` / `{message, delay}`); other errors carry plain text, to which
 * core appends a "What happened" trail unless the error says not to (the app's errors do):
 * `text` is the message without it, `raw` all of it.
 */
export interface ZapierFailure {
  name: string;
  text: string;
  code?: string;
  status?: number;
  delay?: number;
  raw: string;
}

export function parseZapierError(error: unknown): ZapierFailure {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) {
    throw new Error(`Expected an error object, got ${String(error)}`);
  }
  const { name, message } = error as { name: string; message: string };
  if (name === 'AppError' || name === 'ThrottledError') {
    const parsed = JSON.parse(message) as { message: string; code?: string; status?: number; delay?: number };
    return { name, text: parsed.message, code: parsed.code, status: parsed.status, delay: parsed.delay, raw: message };
  }
  return { name, text: message.split('\nWhat happened:')[0] ?? message, raw: message };
}

/** The error a call rejected with, parsed; a call that succeeds fails the test. */
export async function failureOf(call: Promise<unknown>): Promise<ZapierFailure> {
  const error = await call.then(
    (value) => {
      throw new Error(`Expected the call to fail, but it returned ${JSON.stringify(value)}`);
    },
    (rejection: unknown) => rejection,
  );
  return parseZapierError(error);
}

/** Neither the key nor a long piece of it appears anywhere in what Zapier would show or log. */
export function expectNoKey(failure: ZapierFailure): void {
  expect(failure.raw).not.toContain(KEY);
  expect(failure.raw).not.toContain(KEY.slice(0, 12));
  expect(failure.raw).not.toContain(KEY.slice(-12));
}
