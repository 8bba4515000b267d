// How a console tab gets the feed: from the SharedWorker all of this browser's console tabs
// share (one stream for them all), or, in a browser without SharedWorker (Chrome on Android,
// Safari before 16) or where the worker cannot start, from a stream of its own.
import type { ToTab, ToWorker } from './feed-channel.ts';
import { FEED_WORKER_NAME, FEED_WORKER_URL } from './feed-channel.ts';
import { FeedHub, type FeedListener } from './feed-hub.ts';

/** Says on the page (`<html data-feed>`) which way the feed comes, for a person in the developer tools and for the tests. */
const say = (way: 'shared' | 'own') => {
  document.documentElement.dataset.feed = way;
};

export function connectFeed(tab: FeedListener): void {
  let own: FeedHub | undefined;
  const readItself = () => {
    if (own) return;
    say('own');
    own = new FeedHub();
    own.join(tab);
  };
  if (typeof SharedWorker !== 'function') {
    readItself();
    return;
  }
  let worker: SharedWorker;
  try {
    worker = new SharedWorker(FEED_WORKER_URL, { name: FEED_WORKER_NAME });
  } catch {
    readItself();
    return;
  }
  worker.addEventListener('error', readItself, { once: true });
  worker.port.addEventListener('message', (message: MessageEvent<ToTab>) => {
    if (own) return;
    if (message.data.kind === 'state') tab.state(message.data.state);
    else tab.events(message.data.messages);
  });
  worker.port.start();
  say('shared');
  const tell = (message: ToWorker) => worker.port.postMessage(message);
  addEventListener('pagehide', () => tell({ kind: 'bye' }));
  addEventListener('pageshow', (event) => {
    if (event.persisted) tell({ kind: 'hello' });
  });
}
