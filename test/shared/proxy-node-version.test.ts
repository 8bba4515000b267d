import { afterEach, describe, expect, it } from '@jest/globals';
import { proxyNeedsNode } from '../../shared/transports/fetch-transport.ts';

/**
 * @pagerly/client on a Node older than its engines (npm only warns): without a proxy it runs on
 * the platform's fetch; with HTTPS_PROXY set it loads undici 8, which failed on Node 20 with
 * "TypeError: Cannot read properties of undefined (reading 'bind')". The check says what to do.
 */
const real = Object.getOwnPropertyDescriptor(process.versions, 'node')!;
const pretend = (value: string) => Object.defineProperty(process.versions, 'node', { ...real, value });
afterEach(() => {
  Object.defineProperty(process.versions, 'node', real);
});

describe('a proxy on a Node too old for undici 8', () => {
  it.each(['20.20.2', '22.18.0'])('Node %s: names the variable, the Node needed and the way out', (version) => {
    pretend(version);
    expect(() => proxyNeedsNode('HTTPS_PROXY')).toThrow(
      `HTTPS_PROXY is set, and requests through a proxy need Node.js 22.19 or later (undici 8); this is Node ${version}. Run on a newer Node, or unset HTTPS_PROXY to connect directly.`,
    );
  });

  it.each(['22.19.0', '24.1.0'])('Node %s: passes', (version) => {
    pretend(version);
    expect(() => proxyNeedsNode('HTTP_PROXY')).not.toThrow();
  });
});
