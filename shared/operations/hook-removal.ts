import { isPagerlyError } from '../errors.ts';

/**
 * Statuses that say a hook is already gone when asked to remove it: 404 (no such hook), 410
 * (removed, as the REST-hook convention answers) and 405 (this service has no removal, the
 * reference documents none: the hook goes when its URL answers 410, Zapier's and Make's rule).
 */
export const HOOK_ALREADY_GONE: ReadonlySet<number> = new Set([404, 405, 410]);

/** Whether an unsubscribe's failure means the goal is reached: the hook is not there to remove. */
export const hookAlreadyGone = (error: unknown): boolean => isPagerlyError(error) && error.status !== undefined && HOOK_ALREADY_GONE.has(error.status);
