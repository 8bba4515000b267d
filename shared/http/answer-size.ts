/**
 * The bound on one answer's body, the same for every transport that reads bodies itself (fetch,
 * got): an answer that keeps coming (a hostile or broken service, a proxy) is cut off there, not
 * held until the process runs out of memory.
 */

/** The largest answer read by default: far beyond any the API gives (everyone on call at 2,000 teams is a few MB). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The code of an answer cut off at the bound: not in RETRY_FAILURE_CODES, as the same answer would come again. */
export const BODY_TOO_LARGE = 'ERR_BODY_TOO_LARGE';

/** The failure a transport raises at the bound; it becomes the shared NetworkError (failure.ts) with these words. */
export const bodyTooLarge = (max: number): Error & { code: string } =>
  Object.assign(new Error(`the answer was longer than ${max} bytes, so it was not read`), { code: BODY_TOO_LARGE });
