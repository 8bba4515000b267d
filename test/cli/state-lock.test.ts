import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitCodeFor } from '../../cli/exit-codes.ts';
import { STALE_LOCK_MS, StateLockedError, withStateLock } from '../../cli/watch/state-lock.ts';

/** The state file's lock on its own (the overlapping runs are in on-call-watch-overlap.test.ts). */
const SHORT_WAIT = { retries: 3, factor: 1, minTimeout: 50, maxTimeout: 50 };

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pagerly-state-lock-'));
  file = join(dir, 'state.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the state file lock', () => {
  it('is held during the work and gone after it, even when the work fails', async () => {
    await withStateLock(file, async () => expect(existsSync(`${file}.lock`)).toBe(true));
    expect(existsSync(`${file}.lock`)).toBe(false);
    await expect(withStateLock(file, async () => Promise.reject(new Error('look failed')))).rejects.toThrow('look failed');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('makes a second holder wait until the first is done', async () => {
    const order: string[] = [];
    let done!: () => void;
    const first = withStateLock(
      file,
      () =>
        new Promise<void>((resolve) => {
          done = () => {
            order.push('first done');
            resolve();
          };
        }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = withStateLock(file, async () => void order.push('second in'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    done();
    await Promise.all([first, second]);
    expect(order).toEqual(['first done', 'second in']);
  });

  it('held by a live run for longer than the wait: a typed error, exit 75, nothing done', async () => {
    let done!: () => void;
    const holder = withStateLock(file, () => new Promise<void>((resolve) => (done = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    let ran = false;
    const run = async () => {
      ran = true;
    };
    const error = await withStateLock(file, run, SHORT_WAIT).catch((e: unknown) => e);
    done();
    await holder;
    expect(error).toBeInstanceOf(StateLockedError);
    expect(exitCodeFor(error)).toBe(75);
    expect((error as Error).message).toContain(`${file}.lock`);
    expect(ran).toBe(false);
  });

  it('left behind by a run that died: taken over once older than the stale limit', async () => {
    mkdirSync(`${file}.lock`);
    const old = (Date.now() - STALE_LOCK_MS - 5_000) / 1000;
    utimesSync(`${file}.lock`, old, old);
    let ran = false;
    await withStateLock(
      file,
      async () => {
        ran = true;
      },
      SHORT_WAIT,
    );
    expect(ran).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('left behind but fresh: still waited for (a live holder touches it)', async () => {
    mkdirSync(`${file}.lock`);
    await expect(withStateLock(file, async () => undefined, SHORT_WAIT)).rejects.toBeInstanceOf(StateLockedError);
  });
});
