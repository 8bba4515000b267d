import type { FieldProblem } from './validation.ts';

/**
 * One error model for every consumer (typed client, Zapier app, Make runner, CLI).
 * `code` says what kind of failure it is; `retryable` whether sending the same request again
 * can succeed *and* cannot do the work twice; `mayHaveApplied` whether the service may have
 * carried out a request that changes something although the call failed (a create that met a
 * 500 or timed out after it was sent): then nothing may retry it blindly, the user checks first.
 * Messages say what to fix and never contain the API key: every text that came from outside
 * has been through `redact` before it gets here.
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
  | 'request'
  | 'redirect'
  | 'host_not_found'
  | 'certificate'
  | 'proxy';

export interface ErrorDetails {
  /** Catalog key of the endpoint, when the error belongs to a call. */
  endpoint?: string;
  status?: number;
  /** The service's own error text (from `[{"Error": "..."}]`), redacted. */
  serviceMessage?: string;
  /**
   * A request that is not safe to repeat (a create) was sent, and what came back does not
   * prove it was not done (a 500, 502 or 504, a time-out or a reset after it left).
   */
  mayHaveApplied?: boolean;
}

export abstract class PagerlyError extends Error {
  abstract readonly code: PagerlyErrorCode;
  abstract readonly retryable: boolean;
  readonly endpoint: string | undefined;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly mayHaveApplied: boolean;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = new.target.name;
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.serviceMessage = details.serviceMessage;
    this.mayHaveApplied = details.mayHaveApplied ?? false;
  }
}

/** Temporary failures: worth another try unless that try could do the work a second time. */
abstract class TemporaryError extends PagerlyError {
  readonly retryable: boolean;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
    this.retryable = !this.mayHaveApplied;
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

/** 5xx: the service failed; the same request may succeed later (a create only after a 503, see `mayHaveApplied`). */
export class ServerError extends TemporaryError {
  readonly code = 'server';
}

/** The service could not be reached or the connection broke (refused, reset, DNS lookup failed for now). */
export class NetworkError extends TemporaryError {
  readonly code = 'network';
}

export class TimeoutError extends TemporaryError {
  readonly code = 'timeout';
}

/**
 * The base URL's host does not exist (DNS answered "no such name", ENOTFOUND): a setting to
 * fix, not a passing fault. Nothing was sent.
 */
export class HostNotFoundError extends PagerlyError {
  readonly code = 'host_not_found';
  readonly retryable = false;
}

/**
 * The service's TLS certificate could not be verified (self-signed, an unknown authority,
 * expired, for another host): a setting to fix (the base URL, or the authority Node trusts),
 * not a passing fault, so never retried. The handshake failed before any byte of the request
 * left, so nothing was sent and nothing may have been done.
 */
export class CertificateError extends PagerlyError {
  readonly code = 'certificate';
  readonly retryable = false;
  /** Node's (OpenSSL's) verification code: DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED, ... */
  readonly certificateCode: string;

  constructor(message: string, certificateCode: string, details: Omit<ErrorDetails, 'mayHaveApplied'> = {}) {
    super(message, { ...details, mayHaveApplied: false });
    this.certificateCode = certificateCode;
  }
}

/**
 * The proxy named in HTTPS_PROXY or HTTP_PROXY refused the request (407: it wants credentials;
 * a CONNECT answered 403 or 5xx: it will not or cannot open the tunnel). The request never
 * left the proxy, so nothing reached the service and nothing may have been done; sending it
 * again through the same proxy meets the same refusal, so it is a setting to fix, never retried.
 * The message names the variable and the proxy's host, never the credentials in its URL.
 */
export class ProxyError extends PagerlyError {
  readonly code = 'proxy';
  readonly retryable = false;
  /** The variable whose proxy refused, as spelled: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY (Bun, Deno) or a lower-case spelling; '' for a proxy no variable names. */
  readonly proxyVariable: string;
  /** The proxy's host and port, without credentials; '' where it is not known (a proxy that intercepts). */
  readonly proxyHost: string;
  /** The proxy's own status (407, 403, 502...): not the service's, which never answered; 0 where the runtime did not say it (Deno's refused tunnel). */
  readonly proxyStatus: number;

  constructor(message: string, proxy: { variable: string; host: string; status: number }, details: Omit<ErrorDetails, 'mayHaveApplied' | 'status'> = {}) {
    super(message, { ...details, mayHaveApplied: false });
    this.proxyVariable = proxy.variable;
    this.proxyHost = proxy.host;
    this.proxyStatus = proxy.status;
  }
}

/**
 * The service answered with a redirect that was not followed: to another origin (the API key
 * goes only to the configured bases), or too many of them. The message names the status and
 * the target's host, never its path or query.
 */
export class RedirectError extends PagerlyError {
  readonly code = 'redirect';
  readonly retryable = false;
  /** Host (and port) the redirect pointed at, when it named one. */
  readonly targetHost: string | undefined;

  constructor(message: string, targetHost: string | undefined, details: ErrorDetails = {}) {
    super(message, details);
    this.targetHost = targetHost;
  }
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
