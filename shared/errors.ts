import type { FieldProblem } from './validation.ts';

/**
 * One error model for every consumer (typed client, Zapier app, Make runner, CLI).
 * `code` says what kind of failure it is, `retryable` whether sending the same request
 * later can succeed. Messages say what to fix and never contain the API key: every text
 * that came from outside has been through `redact` before it gets here.
 */
export type PagerlyErrorCode =
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'invalid_input'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'invalid_response'
  | 'request';

export interface ErrorDetails {
  /** Catalog key of the endpoint, when the error belongs to a call. */
  endpoint?: string;
  status?: number;
  /** The service's own error text (from `[{"Error": "..."}]`), redacted. */
  serviceMessage?: string;
}

export abstract class PagerlyError extends Error {
  abstract readonly code: PagerlyErrorCode;
  abstract readonly retryable: boolean;
  readonly endpoint: string | undefined;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = new.target.name;
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.serviceMessage = details.serviceMessage;
  }
}

/** The key is missing or refused (the documented `400 [{"Error":"API Key is not valid"}]`). */
export class AuthenticationError extends PagerlyError {
  readonly code = 'authentication';
  readonly retryable = false;
}

/** The key's creator may not do this (org admin only, or the owner is protected). */
export class PermissionError extends PagerlyError {
  readonly code = 'permission';
  readonly retryable = false;
}

export class NotFoundError extends PagerlyError {
  readonly code = 'not_found';
  readonly retryable = false;
}

/** Input refused, before sending (`source: 'input'`) or by the service (`source: 'service'`). */
export class InvalidInputError extends PagerlyError {
  readonly code = 'invalid_input';
  readonly retryable = false;
  readonly problems: readonly FieldProblem[];
  readonly source: 'input' | 'service';

  constructor(message: string, problems: readonly FieldProblem[], source: 'input' | 'service', details: ErrorDetails = {}) {
    super(message, details);
    this.problems = problems;
    this.source = source;
  }
}

export class RateLimitError extends PagerlyError {
  readonly code = 'rate_limited';
  readonly retryable = true;
  /** From `Retry-After`, when the service sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, retryAfterSeconds: number | undefined, details: ErrorDetails = {}) {
    super(message, details);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** 5xx: the service failed; the same request may succeed later. */
export class ServerError extends PagerlyError {
  readonly code = 'server';
  readonly retryable = true;
}

/** The service could not be reached (refused, reset, DNS). */
export class NetworkError extends PagerlyError {
  readonly code = 'network';
  readonly retryable = true;
}

export class TimeoutError extends PagerlyError {
  readonly code = 'timeout';
  readonly retryable = true;
}

/** A success or error answer whose body is not JSON, or not of a documented shape. */
export class InvalidResponseError extends PagerlyError {
  readonly code = 'invalid_response';
  readonly retryable = false;
}

/** Any other 4xx (405, 409, 413, ...). */
export class RequestError extends PagerlyError {
  readonly code = 'request';
  readonly retryable = false;
}

export const isPagerlyError = (value: unknown): value is PagerlyError => value instanceof PagerlyError;
