import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWatchState, writeWatchState } from '../../cli/watch/state-file.ts';

/**
 * The watch state file may sit in a shared folder (/tmp): another local user can put a symlink
 * where the state is written first, the file beside it (`.FILE.<pid>.tmp`, a name anyone can
 * guess), to have this run overwrite a file of its choosing with this user's rights.
 */
const folder = mkdtempSync(join(tmpdir(), 'pagerly-state-file-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('writeWatchState', () => {
  it('writes through no symlink planted at the partial file', () => {
    const file = join(folder, 'state.json');
    const victim = join(folder, 'victim');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(folder, `.state.json.${process.pid}.tmp`));
    writeWatchState(file, { version: 1, team: null, savedAt: '2026-01-01T00:00:00Z', snapshot: {} } as never);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readWatchState(file, null, () => undefined)).toBeDefined();
  });

  it('leaves the state readable by its owner only', () => {
    const file = join(folder, 'own.json');
    writeWatchState(file, { version: 1, team: null, savedAt: '2026-01-01T00:00:00Z', snapshot: {} } as never);
    expect(statSync(file).mode & 0o077).toBe(0);
  });
});
