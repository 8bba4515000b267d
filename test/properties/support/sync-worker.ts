import { parentPort } from 'node:worker_threads';
import { ImlError, evaluateExpression, renderTemplate } from '../../../make-app/interpreter/iml/index.ts';
import { PagerlyError, RateLimitError } from '../../../shared/errors.ts';
import { interpretResponse } from '../../../shared/http/response.ts';
import type { CallRequest, CallResult, ErrorSummary, SyncCall } from './time-box.ts';

/**
 * Runs the synchronous functions under test in a worker thread, so that the test can time
 * each call out (and end the worker) instead of hanging with it. Node strips the types here.
 */
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

// IML scopes travel as JSON text (structured cloning recurses, and some scopes are deep on
// purpose); IML results come back as their kind only, for the same reason.
const calls: { [K in SyncCall['fn']]: (...args: never[]) => unknown } = {
  evaluateExpression: (source: string, scopeJson: string) => kindOf(evaluateExpression(source, JSON.parse(scopeJson) as Record<string, unknown>)),
  renderTemplate: (templateJson: string, scopeJson: string) =>
    kindOf(renderTemplate(JSON.parse(templateJson), JSON.parse(scopeJson) as Record<string, unknown>)),
  interpretResponse: (key: never, response: never, secrets: never) => interpretResponse(key, response, secrets),
};

function summary(error: unknown): ErrorSummary {
  const e = error as { name?: unknown; message?: unknown; constructor?: { name?: string } };
  return {
    name: String(e?.name),
    className: e?.constructor?.name ?? typeof error,
    message: String(e?.message),
    isImlError: error instanceof ImlError,
    isPagerlyError: error instanceof PagerlyError,
    ...(error instanceof PagerlyError ? { code: error.code, retryable: error.retryable, serviceMessage: error.serviceMessage, status: error.status } : {}),
    ...(error instanceof RateLimitError ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  };
}

parentPort!.on('message', ({ id, call }: CallRequest) => {
  let result: CallResult;
  try {
    const value = (calls[call.fn] as (...args: unknown[]) => unknown)(...call.args);
    result = { ok: true, value };
  } catch (error) {
    result = { ok: false, error: summary(error) };
  }
  try {
    parentPort!.postMessage({ id, result });
  } catch (error) {
    parentPort!.postMessage({ id, result: { ok: false, error: { ...summary(error), name: 'UncloneableResult' } } });
  }
});
