import { afterAll, beforeAll } from '@jest/globals';
import { startSandbox, type Running } from '../sandbox/support.ts';
import { startKeyProxy, type KeyProxy } from '../support/key-proxy.ts';
import { captureOutput, removeDir, tempDirAsTmp } from '../support/leak-watch.ts';
import { secretSeed } from './secret-world.ts';

export interface SecretWorld {
  /** The sandbox, seeded with the secret keys. */
  readonly running: Running;
  /** In front of the sandbox: what the surfaces under test call, and the proof of what went out. */
  readonly proxy: KeyProxy;
  /** Everything the process printed while the file ran. */
  readonly output: ReturnType<typeof captureOutput>;
  /** TMPDIR for the file, searched for the key at the end. */
  readonly temp: ReturnType<typeof tempDirAsTmp>;
}

/**
 * The world every secrets test file runs in, set up before its tests and taken down after
 * them. `start` adds a file's own pieces (a hook receiver, a runner) once the proxy is up and
 * before printing is captured; `stop` takes them down, in reverse order.
 */
export function useSecretWorld(
  extras: { start?(world: Pick<SecretWorld, 'running' | 'proxy'>): Promise<void> | void; stop?(): Promise<void> | void } = {},
): SecretWorld {
  const parts: Partial<{ -readonly [K in keyof SecretWorld]: SecretWorld[K] }> = {};
  beforeAll(async () => {
    parts.temp = tempDirAsTmp();
    parts.running = await startSandbox({ seed: secretSeed(), rateLimit: false });
    parts.proxy = await startKeyProxy(parts.running.url);
    await extras.start?.({ running: parts.running, proxy: parts.proxy });
    parts.output = captureOutput();
  });
  afterAll(async () => {
    parts.output?.stop();
    await extras.stop?.();
    await parts.proxy?.close();
    await parts.running?.sandbox.close();
    parts.temp?.restore();
    if (parts.temp) removeDir(parts.temp.dir);
  });
  const ready = <K extends keyof SecretWorld>(key: K): SecretWorld[K] => {
    const part = parts[key];
    if (part === undefined) throw new Error(`The secret world's ${key} is used before it was set up (beforeAll)`);
    return part as SecretWorld[K];
  };
  return {
    get running() {
      return ready('running');
    },
    get proxy() {
      return ready('proxy');
    },
    get output() {
      return ready('output');
    },
    get temp() {
      return ready('temp');
    },
  };
}
