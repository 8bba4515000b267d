import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { engineReady, ensureEngine, LINES, lineDir, n8nBin, nodeBin } from '../../n8n-app/engine/cache.ts';

/**
 * The engine cache's own logic, with npm replaced by a script that lays out what npm would
 * (package.json files, the `node` package's binary, sqlite3's build) and logs each call: which
 * steps run, which are reused, and what a failure says. The real installs are `npm run n8n:install`.
 */
const FAKE_NPM = `#!/bin/sh
echo "$* | node=$(command -v node)" >> "$NPM_CALLS"
case "$1 $2" in
  "install node@"*) v=\${2#node@}; mkdir -p node_modules/node/bin
    printf '{"version":"%s"}' "$v" > node_modules/node/package.json
    printf '#!/bin/sh\\necho v%s\\n' "$v" > node_modules/node/bin/node; chmod +x node_modules/node/bin/node ;;
  "install n8n@"*) [ -n "$NPM_FAIL_N8N" ] && exit 1; v=\${2#n8n@}; mkdir -p node_modules/n8n
    printf '{"version":"%s"}' "$v" > node_modules/n8n/package.json ;;
  "rebuild sqlite3") [ -n "$NPM_FAIL_REBUILD" ] && exit 1; mkdir -p node_modules/sqlite3/build/Release
    : > node_modules/sqlite3/build/Release/node_sqlite3.node ;;
esac
`;

let folder: string;
const saved = { ...process.env };
const calls = () => readFileSync(join(folder, 'calls.log'), 'utf8').trim().split('\n').filter(Boolean);

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-engine-cache-'));
  writeFileSync(join(folder, 'npm'), FAKE_NPM);
  chmodSync(join(folder, 'npm'), 0o755);
  writeFileSync(join(folder, 'calls.log'), '');
  process.env.PAGERLY_N8N_CACHE = join(folder, 'cache');
  process.env.PATH = `${folder}${delimiter}${saved.PATH ?? ''}`;
  process.env.NPM_CALLS = join(folder, 'calls.log');
});
afterEach(() => {
  process.env = { ...saved };
  rmSync(folder, { recursive: true, force: true });
});

describe('the n8n engine cache', () => {
  it('keeps each line in its own folder; the newest runs on its own Node, 2.35 on the project Node', () => {
    expect(lineDir(LINES['2.35'])).not.toBe(lineDir(LINES.newest));
    for (const line of Object.values(LINES)) expect(n8nBin(line).startsWith(join(folder, 'cache', `n8n-${line.id}`))).toBe(true);
    expect(nodeBin(LINES['2.35'])).toBe(process.execPath);
    expect(nodeBin(LINES.newest)).toBe(join(lineDir(LINES.newest), 'node_modules', 'node', 'bin', 'node'));
    // n8n 2.36 and later declare engines.node >=24: the newest line must bring a Node 24.
    expect(LINES.newest.node).toMatch(/^24\./);
  });

  it('installs a line step by step once, with sqlite3 built on the line Node, then reuses every step', () => {
    const line = LINES.newest;
    expect(engineReady(line)).toBe(false);
    const first = ensureEngine(line);
    expect(first.map((step) => [step.what, step.reused])).toEqual([
      [`npm install node@${line.node}`, false],
      [`npm install n8n@${line.n8n}`, false],
      ['npm rebuild sqlite3', false],
    ]);
    const made = calls();
    expect(made.map((call) => call.split(' ').slice(0, 2).join(' '))).toEqual([`install node@${line.node}`, `install n8n@${line.n8n}`, 'rebuild sqlite3']);
    expect(made[2]).toContain(`node=${nodeBin(line)}`);
    expect(made[1]).toContain('--ignore-scripts');
    // npm 11 runs only the install scripts a package.json allows: the node package's fetches its binary.
    expect(JSON.parse(readFileSync(join(lineDir(line), 'package.json'), 'utf8')).allowScripts).toEqual({ node: true });
    expect(engineReady(line)).toBe(true);

    const second = ensureEngine(line);
    expect(second.every((step) => step.reused)).toBe(true);
    expect(calls()).toHaveLength(3);
    // The other line is untouched by this one's install.
    expect(engineReady(LINES['2.35'])).toBe(false);
  });

  it('says which step failed, and keeps what the earlier steps installed', () => {
    process.env.NPM_FAIL_N8N = '1';
    expect(() => ensureEngine(LINES['2.35'])).toThrow(`The step "install n8n ${LINES['2.35'].n8n}" failed in ${lineDir(LINES['2.35'])}`);
    delete process.env.NPM_FAIL_N8N;
    process.env.NPM_FAIL_REBUILD = '1';
    expect(() => ensureEngine(LINES.newest)).toThrow(`The step "build sqlite3 for n8n ${LINES.newest.n8n} on Node ${LINES.newest.node}`);
    delete process.env.NPM_FAIL_REBUILD;
    const retry = ensureEngine(LINES.newest);
    expect(retry.map((step) => step.reused)).toEqual([true, true, false]);
  });
});

describe('an install in the earlier layout', () => {
  it('is used where it is for the default line (nothing downloaded, nothing moved); the other line gets its own folder', () => {
    const root = join(folder, 'cache');
    mkdirSync(join(root, 'node_modules', 'n8n'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'n8n', 'package.json'), JSON.stringify({ version: LINES['2.35'].n8n }));
    mkdirSync(join(root, 'node_modules', 'sqlite3', 'build', 'Release'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'), '');
    expect(lineDir(LINES['2.35'])).toBe(root);
    expect(engineReady(LINES['2.35'])).toBe(true);
    expect(ensureEngine(LINES['2.35']).every((step) => step.reused)).toBe(true);
    expect(calls()).toEqual([]);
    expect(lineDir(LINES.newest)).toBe(join(root, 'n8n-newest'));
  });
});
