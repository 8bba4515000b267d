// What a console tab and the worker that holds the feed for all tabs (feed-worker.ts) say to
// each other over the worker's port.
import type { FeedMessage, FeedState } from './feed-stream.ts';

/**
 * The worker's name: tabs that name it alike share one worker (and one stream). The number
 * changes with these messages, so a tab of a newer page never talks to an older worker that a
 * tab left open still holds.
 */
export const FEED_WORKER_NAME = 'pagerly-console-feed-1';
export const FEED_WORKER_URL = '/console/feed-worker.js';

export type ToTab = { readonly kind: 'state'; readonly state: FeedState } | { readonly kind: 'events'; readonly messages: readonly FeedMessage[] };

/** `hello` (again) when a tab comes back from the back-forward cache, `bye` when it goes. */
export type ToWorker = { readonly kind: 'hello' } | { readonly kind: 'bye' };
