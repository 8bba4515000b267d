import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file whole or not at all: into a new file beside it, flushed to disk, then renamed
 * over it, so a reader sees the old file or the new one, never part of one, and a failure leaves
 * the old file as it was. The partial file's name can be guessed (the pid) and the file may sit
 * in a shared folder such as /tmp: it is made new (`wx`, O_CREAT|O_EXCL, which follows no
 * symlink), so a link another user planted there is removed, never written through. `mode` is
 * 0o600 for what lists people or their phones.
 */
export function writeWholeFile(path: string, text: string, mode = 0o666): void {
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  // A leftover of a killed run with the same pid, or a planted link: unlinking removes the link itself.
  rmSync(partial, { force: true });
  try {
    const fd = openSync(partial, 'wx', mode);
    try {
      writeSync(fd, Buffer.from(text, 'utf8'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  syncFolder(dirname(path));
}

/** Makes the rename durable too, where the system lets a folder be opened (not Windows: there the rename is as durable as it gets). */
function syncFolder(folder: string): void {
  let fd: number;
  try {
    fd = openSync(folder, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems refuse to flush a folder; the rename is done all the same.
  } finally {
    closeSync(fd);
  }
}
