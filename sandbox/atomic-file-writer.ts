import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** How long a change that is not urgent (a delivery's progress, say) may wait to be written. */
const PROGRESS_WRITE_DELAY_MS = 50;

/**
 * Writes a file after changes, atomically: the whole content goes to a temporary file in the
 * same folder, flushed to the disk (fsync), which is then renamed over the file, and the folder
 * flushed too, so the file is always one complete content, old or new, even after a crash of
 * the machine.
 *
 * One write at a time; changes made meanwhile are taken by the next write. An urgent change
 * (for the sandbox's state: a subscription, an id, a new event and its deliveries) is written
 * at once, and `flush()` resolves once everything changed so far is on disk (the service
 * answers a request only after that). Other changes are written within PROGRESS_WRITE_DELAY_MS,
 * so a fan-out to a thousand subscriptions is not a thousand writes; a crash in between only
 * repeats an attempt, which at-least-once delivery allows.
 */
export class AtomicFileWriter {
  readonly file: string;
  private readonly content: () => string;
  private readonly failure: (file: string, error: unknown) => Error;
  private readonly temporary: string;
  /** Bumped by every change; `written` is the change count the file holds. */
  private changes = 0;
  private urgentChanges = 0;
  private written = 0;
  private writing = false;
  private failed = false;
  private closed = false;
  private folderMade = false;
  private progressTimer: NodeJS.Timeout | undefined;
  private waiters: { changes: number; resolve: () => void; reject: (error: Error) => void }[] = [];

  /** `content` is read at each write; `failure` makes the error a failed write rejects `flush()` with. */
  constructor(file: string, content: () => string, failure: (file: string, error: unknown) => Error) {
    this.file = resolve(file);
    this.content = content;
    this.failure = failure;
    this.temporary = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.tmp`);
  }

  /** Something kept changed; `urgent` ones are written at once, the others soon. */
  changed(urgent: boolean): void {
    if (this.closed) return;
    this.changes += 1;
    if (urgent) this.urgentChanges = this.changes;
    this.failed = false;
    this.plan();
  }

  /** Resolves once every change so far is in the file; rejects with the `failure` error if writing fails. */
  flush(): Promise<void> {
    if (this.written >= this.changes) return Promise.resolve();
    this.urgentChanges = this.changes;
    this.failed = false;
    const flushed = new Promise<void>((resolve, reject) => this.waiters.push({ changes: this.changes, resolve, reject }));
    this.plan();
    return flushed;
  }

  /** Writes what is left and then nothing more. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    clearTimeout(this.progressTimer);
  }

  private plan(): void {
    if (this.writing || this.failed || this.written >= this.changes) return;
    if (this.urgentChanges > this.written) {
      clearTimeout(this.progressTimer);
      this.progressTimer = undefined;
      this.writing = true;
      // Lets the rest of this turn's changes (a whole fan-out, say) join the same write.
      setImmediate(() => void this.write());
    } else {
      this.progressTimer ??= setTimeout(() => {
        this.progressTimer = undefined;
        this.urgentChanges = this.changes;
        this.plan();
      }, PROGRESS_WRITE_DELAY_MS);
    }
  }

  private async write(): Promise<void> {
    const changes = this.changes;
    try {
      const text = this.content();
      if (!this.folderMade) await mkdir(dirname(this.file), { recursive: true });
      this.folderMade = true;
      // Made new (`wx`: O_EXCL follows no link): a link planted at the guessable name is removed, never written through.
      await unlink(this.temporary).catch(() => undefined);
      const temporary = await open(this.temporary, 'wx');
      try {
        await temporary.writeFile(text);
        await temporary.sync();
      } finally {
        await temporary.close();
      }
      await rename(this.temporary, this.file);
      await syncFolder(dirname(this.file));
      this.written = changes;
      this.settleWaiters();
    } catch (error) {
      await unlink(this.temporary).catch(() => undefined);
      this.folderMade = false;
      this.failed = true;
      const failure = this.failure(this.file, error);
      const waiters = this.waiters;
      this.waiters = [];
      for (const waiter of waiters) waiter.reject(failure);
    } finally {
      this.writing = false;
      this.plan();
    }
  }

  private settleWaiters(): void {
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (waiter.changes <= this.written) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }
}

/** Makes a rename in `folder` durable. Not every system can open a folder (Windows cannot): then the rename is as durable as it gets. */
async function syncFolder(folder: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(folder, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}
