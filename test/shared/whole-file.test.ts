import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeWholeFile } from '../../shared/whole-file.ts';

// The people file of `directory import`, the watch state and the API reports are written by it.
const folder = mkdtempSync(join(tmpdir(), 'pagerly-whole-file-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('writeWholeFile', () => {
  it('replaces the file with the new text, leaving nothing beside it', () => {
    const file = join(folder, 'people.yaml');
    writeFileSync(file, 'old\n');
    writeWholeFile(file, 'new: ü\n');
    expect(readFileSync(file, 'utf8')).toBe('new: ü\n');
    expect(readdirSync(folder)).toEqual(['people.yaml']);
  });

  it('writes through no link another user planted at the partial file', () => {
    const file = join(folder, 'state.json');
    const victim = join(folder, 'victim');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(folder, `.state.json.${process.pid}.tmp`));
    writeWholeFile(file, '{}\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
  });

  it('makes the file owner-only when asked', () => {
    const file = join(folder, 'phones.csv');
    writeWholeFile(file, 'email\n', 0o600);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('leaves what was there, and no partial file, when the rename fails', () => {
    // A folder where the file should be: the rename over it fails (EISDIR), even for root.
    const taken = join(folder, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'inside'), 'kept\n');
    expect(() => writeWholeFile(taken, 'new\n')).toThrow(/EISDIR/);
    expect(readFileSync(join(taken, 'inside'), 'utf8')).toBe('kept\n');
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
