import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkUserEnv, rescueUserFiles, type UserFilePlaces } from '../../zapier-app/packaging/user-files.ts';

// `npm run build` wipes dist/zapier; what users (and `zapier-platform register`) write must survive it.

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function places(): UserFilePlaces & { root: string } {
  const root = mkdtempSync(join(tmpdir(), 'pagerly-user-files-'));
  roots.push(root);
  mkdirSync(join(root, 'dist/zapier'), { recursive: true });
  mkdirSync(join(root, 'zapier-app'));
  return { root, stageDir: join(root, 'dist/zapier/'), linkFile: join(root, 'zapier-app/.zapierapprc'), userEnvFile: join(root, 'zapier-app/.env') };
}

/** What a build does to dist/zapier: rescue, wipe, stage again. */
function rebuild(p: UserFilePlaces): string[] {
  const kept = rescueUserFiles(p);
  rmSync(p.stageDir, { recursive: true, force: true });
  mkdirSync(p.stageDir, { recursive: true });
  linkUserEnv(p);
  return kept;
}

describe('user files of the Zapier app survive a build', () => {
  it('an .env written into dist/zapier (the old instructions) moves to zapier-app/.env and is still read there', () => {
    const p = places();
    writeFileSync(join(p.stageDir, '.env'), 'authData_apiKey=abc\n');
    expect(rebuild(p)).toEqual(['moved dist/zapier/.env to zapier-app/.env']);
    expect(readFileSync(p.userEnvFile, 'utf8')).toBe('authData_apiKey=abc\n');
    expect(readFileSync(join(p.stageDir, '.env'), 'utf8')).toBe('authData_apiKey=abc\n');
    // A second build has nothing to move and keeps it.
    expect(rebuild(p)).toEqual([]);
    expect(readFileSync(join(p.stageDir, '.env'), 'utf8')).toBe('authData_apiKey=abc\n');
  });

  it('zapier-app/.env, as docs/zapier.md writes it, is what dist/zapier/.env reads; without one there is no dangling link', () => {
    const p = places();
    rebuild(p);
    expect(existsSync(join(p.stageDir, '.env'))).toBe(false);
    writeFileSync(p.userEnvFile, 'PAGERLY_BASE_URL=http://127.0.0.1:4010\n');
    rebuild(p);
    expect(readFileSync(join(p.stageDir, '.env'), 'utf8')).toBe('PAGERLY_BASE_URL=http://127.0.0.1:4010\n');
    rmSync(p.stageDir, { recursive: true, force: true });
    expect(readFileSync(p.userEnvFile, 'utf8')).toBe('PAGERLY_BASE_URL=http://127.0.0.1:4010\n');
  });

  it('an .env written after the build is linked when the Zapier CLI runs (npm run zapier), and a link already there is kept', () => {
    const p = places();
    rebuild(p);
    writeFileSync(p.userEnvFile, 'authData_apiKey=abc\n');
    linkUserEnv(p); // what scripts/zapier.ts does before each command
    expect(readFileSync(join(p.stageDir, '.env'), 'utf8')).toBe('authData_apiKey=abc\n');
    expect(() => linkUserEnv(p)).not.toThrow();
  });

  it('the link that `zapier-platform register` merged into dist/zapier/.zapierapprc is saved to zapier-app/.zapierapprc', () => {
    const p = places();
    // What the CLI writes: the staged file with {id, key} merged in (writeLinkedAppConfig in zapier-platform-cli's src/utils/api.js).
    writeFileSync(join(p.stageDir, '.zapierapprc'), JSON.stringify({ includeInBuild: ['x'], id: 123456, key: 'App123456' }));
    expect(rebuild(p)).toEqual(['saved the link to Zapier app 123456 in zapier-app/.zapierapprc (commit it)']);
    expect(JSON.parse(readFileSync(p.linkFile, 'utf8'))).toEqual({ id: 123456, key: 'App123456' });
    expect(rebuild(p)).toEqual([]);
  });

  it('a staged .zapierapprc without a link, or a broken one, changes nothing', () => {
    const p = places();
    writeFileSync(join(p.stageDir, '.zapierapprc'), '{"includeInBuild": []}');
    expect(rebuild(p)).toEqual([]);
    writeFileSync(join(p.stageDir, '.zapierapprc'), '{not json');
    expect(rebuild(p)).toEqual([]);
    expect(existsSync(p.linkFile)).toBe(false);
  });
});
