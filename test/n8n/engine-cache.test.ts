import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  committedLock,
  engineReady,
  ensureEngine,
  ensureTools,
  LINES,
  lineDir,
  lineManifest,
  n8nBin,
  nodeBin,
  toolsManifest,
  toolsReady,
} from '../../n8n-app/engine/cache.ts';

/**
 * The engine cache's own logic, with npm replaced by a script that lays out what npm would
 * (package.json files, the `node` package's binary, sqlite3's build) and logs each call: which
 * steps run, which are reused, and what a failure says. The real installs are `npm run n8n:install`.
 */
const FAKE_NPM = `#!/bin/sh
echo "$* | node=$(command -v node) | lock=$([ -f package-lock.json ] && echo yes || echo no)" >> "$NPM_CALLS"
case "$1 $2" in
  "ci --ignore-scripts"|"install --ignore-scripts") [ -n "$NPM_FAIL_INSTALL" ] && exit 1
    rm -rf node_modules
    node -e 'const m=require("./package.json");const fs=require("fs");for(const [n,v] of Object.entries(m.dependencies)){fs.mkdirSync("node_modules/"+n,{recursive:true});fs.writeFileSync("node_modules/"+n+"/package.json",JSON.stringify({version:v}))};fs.mkdirSync("node_modules/sqlite3");fs.writeFileSync("node_modules/sqlite3/package.json",JSON.stringify({version:process.env.FAKE_SQLITE||"5.1.7"}))' ;;
  "rebuild node") v=$(node -p 'require("./node_modules/node/package.json").version'); mkdir -p node_modules/node/bin
    printf '#!/bin/sh\\necho v%s\\n' "$v" > node_modules/node/bin/node; chmod +x node_modules/node/bin/node ;;
  "rebuild sqlite3") [ -n "$NPM_FAIL_REBUILD" ] && exit 1; mkdir -p node_modules/sqlite3/build/Release
    echo "built in $PWD" > node_modules/sqlite3/build/Release/node_sqlite3.node ;;
esac
`;

let folder: string;
const saved = { ...process.env };
const calls = () => readFileSync(join(folder, 'calls.log'), 'utf8').trim().split('\n').filter(Boolean);
const verb = (call: string) => call.split(' | ')[0]!.split(' ').slice(0, 2).join(' ');

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

describe('the committed lock files', () => {
  // A pin moved in cache.ts without `npm run n8n:lock` would install unlocked, from whatever the
  // registry serves that day: this fails first, in npm test.
  it('match every line pin and the tools versions', () => {
    for (const line of Object.values(LINES)) expect([line.id, committedLock(`n8n-${line.id}`, lineManifest(line)) !== undefined]).toEqual([line.id, true]);
    expect(committedLock('tools', toolsManifest())).toBeDefined();
  });

  it('lock the very n8n version each line runs', () => {
    for (const line of Object.values(LINES)) {
      const lock = JSON.parse(committedLock(`n8n-${line.id}`, lineManifest(line))!) as { packages: Record<string, { version?: string }> };
      expect(lock.packages['node_modules/n8n']?.version).toBe(line.n8n);
      if (line.node) expect(lock.packages['node_modules/node']?.version).toBe(line.node);
    }
  });
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

  it('installs a line from its lock once, without scripts but the node package, sqlite3 built on the line Node, then reuses every step', () => {
    const line = LINES.newest;
    expect(engineReady(line)).toBe(false);
    const first = ensureEngine(line);
    expect(first.map((step) => [step.what, step.reused])).toEqual([
      [`npm ci (n8n@${line.n8n} node@${line.node}, locked)`, false],
      [`npm rebuild node (Node ${line.node})`, false],
      ['npm rebuild sqlite3', false],
    ]);
    const made = calls();
    expect(made.map(verb)).toEqual(['ci --ignore-scripts', 'rebuild node', 'rebuild sqlite3']);
    expect(made[0]).toContain('lock=yes');
    expect(made[2]).toContain(`node=${nodeBin(line)}`);
    expect(readFileSync(join(lineDir(line), 'package-lock.json'), 'utf8')).toBe(committedLock('n8n-newest', lineManifest(line)));
    expect(JSON.parse(readFileSync(join(lineDir(line), 'package.json'), 'utf8')).allowScripts).toEqual({ node: true });
    expect(engineReady(line)).toBe(true);

    const second = ensureEngine(line);
    expect(second.every((step) => step.reused)).toBe(true);
    expect(calls()).toHaveLength(3);
    // The other line is untouched by this one's install.
    expect(engineReady(LINES['2.35'])).toBe(false);
  });

  it('installs a version no lock was made for with npm install, and again once the pin moves', () => {
    const tried = { ...LINES.newest, n8n: '2.99.0' };
    const steps = ensureEngine(tried);
    expect(steps[0]!.what).toBe(`npm install n8n@2.99.0 node@${tried.node} (no lock)`);
    expect(calls()[0]).toContain('lock=no');
    expect(engineReady(tried)).toBe(true);
    // Back on the pin: its lock installs over the tried version, not the record of it.
    expect(engineReady(LINES.newest)).toBe(false);
    expect(ensureEngine(LINES.newest)[0]!.reused).toBe(false);
    expect(verb(calls().at(-3)!)).toBe('ci --ignore-scripts');
  });

  it('says which step failed, and keeps what the earlier steps installed', () => {
    process.env.NPM_FAIL_INSTALL = '1';
    expect(() => ensureEngine(LINES['2.35'])).toThrow(`The step "install n8n ${LINES['2.35'].n8n}" failed in ${lineDir(LINES['2.35'])}`);
    expect(engineReady(LINES['2.35'])).toBe(false);
    delete process.env.NPM_FAIL_INSTALL;
    process.env.NPM_FAIL_REBUILD = '1';
    expect(() => ensureEngine(LINES.newest)).toThrow(`The step "build sqlite3 for n8n ${LINES.newest.n8n} on Node ${LINES.newest.node}`);
    delete process.env.NPM_FAIL_REBUILD;
    const retry = ensureEngine(LINES.newest);
    expect(retry.map((step) => step.reused)).toEqual([true, true, false]);
  });

  it("builds sqlite3 once: a line with the same sqlite3 copies the other line's build (N-API: one build serves Node 22 and 24)", () => {
    ensureEngine(LINES['2.35']);
    const steps = ensureEngine(LINES.newest);
    expect(steps.at(-1)!.what).toBe('sqlite3 build copied from 2.35');
    expect(
      calls()
        .map(verb)
        .filter((call) => call === 'rebuild sqlite3'),
    ).toHaveLength(1);
    expect(readFileSync(join(lineDir(LINES.newest), 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'), 'utf8')).toContain(
      lineDir(LINES['2.35']),
    );
    expect(engineReady(LINES.newest)).toBe(true);
  });

  it('builds sqlite3 anew where the other line has another sqlite3 version', () => {
    ensureEngine(LINES['2.35']);
    process.env.FAKE_SQLITE = '5.2.0';
    expect(ensureEngine(LINES.newest).at(-1)!.what).toBe('npm rebuild sqlite3');
    expect(
      calls()
        .map(verb)
        .filter((call) => call === 'rebuild sqlite3'),
    ).toHaveLength(2);
  });

  it('counts the tools installed only once npm has finished with them', () => {
    expect(toolsReady()).toBe(false);
    process.env.NPM_FAIL_INSTALL = '1';
    expect(() => ensureTools()).toThrow("install n8n's package tools");
    // npm may have written some package.json files before failing: not taken for an install.
    expect(toolsReady()).toBe(false);
    delete process.env.NPM_FAIL_INSTALL;
    expect(ensureTools().reused).toBe(false);
    expect(toolsReady()).toBe(true);
    expect(ensureTools().reused).toBe(true);
  });
});
