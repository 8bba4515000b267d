import * as realCrypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Running } from '../sandbox/support.ts';
import { SECRET_KEY, secretSeed } from './secret-world.ts';

/**
 * How the sandbox compares API keys (sandbox/world/api-key-ring.ts): it keeps SHA-256 digests
 * only, compares the digest of the presented key with every stored digest using
 * `timingSafeEqual` (equal-length buffers by construction) and never leaves the loop early.
 * Checked by structure (what is compared, how often), not by timing; and over HTTP, every
 * wrong key, of the same length or not, gets the identical documented answer.
 */

// Every comparison the key ring makes, seen through node:crypto's own timingSafeEqual.
const comparisons: { left: number; right: number }[] = [];
jest.unstable_mockModule('node:crypto', () => ({
  ...realCrypto,
  default: realCrypto,
  timingSafeEqual: (left: NodeJS.ArrayBufferView, right: NodeJS.ArrayBufferView) => {
    comparisons.push({ left: left.byteLength, right: right.byteLength });
    return realCrypto.timingSafeEqual(left, right);
  },
}));
// Imported after the mock (a static import would load the sandbox, and the key ring, first).
const { ApiKeyRing } = await import('../../sandbox/world/api-key-ring.ts');
const { INVALID_KEY_BODY, startSandbox } = await import('../sandbox/support.ts');

describe('the key ring compares in constant time', () => {
  const stored = ['sbx_first_key_000000000001', SECRET_KEY, 'sbx_third_key_0000000000000000003', 'x'.repeat(64), 'sbx_fifth_key_05'];
  const ring = new ApiKeyRing();
  stored.forEach((key, index) => {
    ring.add(key, `usr_${index}`);
  });

  const presented: [string, string][] = [
    ['the first stored key', stored[0]!],
    ['the last stored key', stored[4]!],
    ['a wrong key of the same length', `${SECRET_KEY.slice(0, -1)}X`],
    ['a wrong key differing in the first character', `X${SECRET_KEY.slice(1)}`],
    ['a prefix of a stored key', SECRET_KEY.slice(0, 12)],
    ['a stored key with one more character', `${SECRET_KEY}0`],
    ['a stored key in upper case', SECRET_KEY.toUpperCase()],
    ['an empty key', ''],
    ['a very long key', 'k'.repeat(10_000)],
  ];

  it.each(presented)('%s: compared with every stored key, always as 32-byte digests', (_what, key) => {
    comparisons.length = 0;
    ring.find(key);
    expect(comparisons).toHaveLength(stored.length);
    expect(comparisons.every(({ left, right }) => left === 32 && right === 32)).toBe(true);
  });

  it('finds the right person for a stored key, and nobody for a near miss', () => {
    expect(ring.find(SECRET_KEY)?.personId).toBe('usr_1');
    expect(ring.find(stored[4]!)?.personId).toBe('usr_4');
    for (const [, key] of presented.slice(2)) expect(ring.find(key)).toBeUndefined();
    // The key id for rate limits is the digest, never the key.
    expect(ring.find(SECRET_KEY)?.keyId).toBe(realCrypto.createHash('sha256').update(SECRET_KEY).digest('hex'));
  });
});

describe('every wrong key gets the identical documented answer', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startSandbox({ seed: secretSeed(), rateLimit: false });
  });
  afterAll(async () => {
    await running.sandbox.close();
  });

  const wrong: [string, string | undefined][] = [
    ['same length, last character changed', `${SECRET_KEY.slice(0, -1)}X`],
    ['same length, first character changed', `X${SECRET_KEY.slice(1)}`],
    ['same length, unrelated', 'z'.repeat(SECRET_KEY.length)],
    ['shorter: a prefix of the key', SECRET_KEY.slice(0, 20)],
    ['longer: the key and one more character', `${SECRET_KEY}0`],
    ['the key in upper case', SECRET_KEY.toUpperCase()],
    ['a very long key', 'k'.repeat(4_000)],
    ['no key at all', undefined],
  ];

  it('the right key is accepted (so the wrong ones are refused for being wrong)', async () => {
    const answer = await running.call('/o/test/apikey', { key: SECRET_KEY });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ valid: true, user: { name: 'Grace Hopper' } });
  });

  it.each(wrong)('%s: 400 [{"Error":"API Key is not valid"}], byte for byte', async (_what, key) => {
    for (const path of ['/o/test/apikey', '/pagerly/o/zapier/allteams', '/o/incident']) {
      const answer = await running.call(path, {
        ...(key === undefined ? {} : { key }),
        method: path === '/o/incident' ? 'POST' : 'GET',
        ...(path === '/o/incident' ? { body: { title: 'x' } } : {}),
      });
      expect({ path, status: answer.status, text: answer.text, type: answer.headers.get('content-type') }).toEqual({
        path,
        status: 400,
        text: INVALID_KEY_BODY,
        type: 'application/json; charset=utf-8',
      });
    }
  });
});
