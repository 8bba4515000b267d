// The SharedWorker every console tab of a browser connects to: it holds the one feed
// (feed-hub.ts) and hands each tab the state so far, then every event and every change of the
// stream's state. Bundled on its own (a classic script) as /console/feed-worker.js.
import type { ToTab, ToWorker } from './feed-channel.ts';
import { FeedHub, type FeedListener } from './feed-hub.ts';

const hub = new FeedHub();

self.addEventListener('connect', (event) => {
  const port = (event as MessageEvent).ports[0];
  if (!port) return;
  const send = (message: ToTab) => port.postMessage(message);
  const listener: FeedListener = {
    events: (messages) => send({ kind: 'events', messages }),
    state: (state) => send({ kind: 'state', state }),
  };
  port.addEventListener('message', (message: MessageEvent<ToWorker>) => {
    // A port gives no sign when its tab is gone: the tab says so as it goes.
    if (message.data?.kind === 'bye') hub.leave(listener);
    else if (message.data?.kind === 'hello') {
      hub.leave(listener);
      hub.join(listener);
    }
  });
  port.start();
  hub.join(listener);
});
