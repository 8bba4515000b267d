import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forTerminal } from '../../cli/terminal-text.ts';
import { jsonShowingControls } from '../../shared/visible-controls.ts';
import { loopbackServer } from '../support/loopback-server.ts';
import { run } from './support.ts';

/**
 * Names and error texts from a hostile service, through the real command line: every human
 * line, note and error shows their control and bidi characters as visible escapes, on a pipe
 * and on a terminal with colour; `--json` gives them back as they came. The sequences are the
 * ones a terminal acts on: OSC 52 writes the clipboard (xterm's ctlseqs, "Manipulate Selection
 * Data"), OSC 8 makes a hidden link, CSI 2J clears the screen, CR and backspace overwrite, C1
 * CSI (U+009B) is a one-byte ESC [, U+202E reverses the text after it (Unicode UAX #9).
 */
const OSC52 = '\x1b]52;c;cm0gLXJmIH4K\x07';
const TEAM = `Platform${OSC52}\nFORGED LINE`;
const PERSON = `Grace\x1b]8;;https://evil.example\x1b\\Hopper\x1b]8;;\x1b\\\r\bMallory`;
const EMAIL = `grace@example.com\u202egnp.exe\u2066x\u2069`;
const ROLE = `admin\x1b[2J\x1b[H\u009b31m`;
const ORG = 'Acme\x7f\x00\u0085';
const SERVICE_ERROR = `Database down\x1b[2J\x07\r\u202eforged`;

/** What the CLI itself may put on a terminal: newlines ending its lines, and its own SGR colours on a TTY. */
const OWN = /\n|\x1b\[[0-9;]*m/g;
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

function expectSafe(text: string): void {
  const left = text.replace(OWN, '');
  const found = UNSAFE.exec(left);
  if (found) throw new Error(`raw U+${found[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${found.index} in ${JSON.stringify(text)}`);
}

let failing = false;
/** Who the service says is on call: the hostile person, or nobody (a change for `on-call watch`). */
let onCall = true;
let service: Awaited<ReturnType<typeof loopbackServer>>;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagerly-terminal-'));
  service = await loopbackServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    request.resume();
    request.on('end', () => {
      const send = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (failing) return send(500, [{ Error: SERVICE_ERROR }]);
      if (path.endsWith('/o/zapier/allteams')) return send(200, [{ id: 'team_1', name: TEAM }]);
      if (path.endsWith('/o/currentusers')) return send(200, onCall ? [{ id: 'usr_1', name: PERSON, email: EMAIL, imageurl: null }] : []);
      if (path.endsWith('/o/test/apikey')) return send(200, { valid: true, user: { name: PERSON, email: EMAIL, role: ROLE }, organization: { name: ORG } });
      if (path.endsWith('/o/oncalluser')) return send(200, { id: 'dir_1', email: EMAIL, name: PERSON, phone: '+14155550123', role: ROLE, imageurl: null });
      if (path.endsWith('/o/incident')) return send(201, { id: 'inc_1', title: PERSON, severity: ROLE, status: 'triggered', teamname: TEAM });
      return send(404, [{ Error: 'no route' }]);
    });
  });
  writeFileSync(join(dir, 'people.csv'), 'email,name,phone,role,remove\ngrace@example.com,Grace Hopper,+14155550123,user,\n');
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each command with its exit code: a team name that names no team fails, listing the teams there are. */
const COMMANDS: readonly (readonly [readonly string[], number])[] = [
  [['teams'], 0],
  [['on-call'], 0],
  [['on-call', '--team', 'Platform'], 1],
  [['directory', 'get', 'grace@example.com'], 0],
  [['check'], 0],
  [['incident', 'create', '--title', 'Disk full'], 0],
];

const cli = (argv: readonly string[], options: { tty?: boolean; colour?: boolean } = {}) =>
  run(['--base-url', service.url, '--retries', '0', ...argv], {
    tty: options.tty ?? false,
    env: { PAGERLY_API_KEY: 'terminal-test-key-0123456789', ...(options.colour ? { FORCE_COLOR: '1' } : {}) },
  });

describe('forTerminal', () => {
  it('shows each control and bidi character as a visible escape', () => {
    expect(forTerminal(OSC52)).toBe('\\x1b]52;c;cm0gLXJmIH4K\\x07');
    expect(forTerminal('a\nb\r\t\b')).toBe('a\\nb\\r\\t\\b');
    expect(forTerminal('\u009b\u0085\x7f\x00')).toBe('\\x9b\\x85\\x7f\\x00');
    expect(forTerminal('\u202a\u202e\u2066\u2069\u200e\u200f\u061c\u2028\u2029')).toBe('\\u202a\\u202e\\u2066\\u2069\\u200e\\u200f\\u061c\\u2028\\u2029');
    // Zero-width characters too, by the rule the console's page shows them by (shared/visible-controls.ts).
    expect(forTerminal('Ad\u200bmin\ufeff')).toBe('Ad\\u200bmin\\ufeff');
  });

  it('a JSON line keeps the value and shows no raw control or bidi character', () => {
    const value = { team: TEAM, user: { name: PERSON, email: EMAIL, role: ROLE, org: ORG } };
    const line = jsonShowingControls(value);
    expect(JSON.parse(line)).toEqual(value);
    const hidden = { team: 'Ops\u200b\u{e0041}' };
    expect(jsonShowingControls(hidden)).toBe('{"team":"Ops\\u200b\\udb40\\udc41"}');
    expect(JSON.parse(jsonShowingControls(hidden))).toEqual(hidden);
    expectSafe(line);
    expect(line).toContain('\\u202e');
    expect(line).toContain('\\u009b');
  });

  it('leaves every other character as it is, and is idempotent', () => {
    const fine = 'Zoë Ångström 中文 العربية 🚀 back\\slash "quoted"';
    expect(forTerminal(fine)).toBe(fine);
    const once = forTerminal(TEAM + PERSON + EMAIL);
    expect(forTerminal(once)).toBe(once);
    expectSafe(once.replace(/\n/g, ''));
    expect(once).not.toContain('\n');
  });
});

describe('hostile names through the command line', () => {
  for (const tty of [false, true]) {
    const where = tty ? 'on a terminal, in colour' : 'on a pipe';
    it.each(COMMANDS.map(([argv, code]) => [argv.join(' '), argv, code] as const))(
      `%s: nothing raw reaches the screen (${where})`,
      async (_name, argv, code) => {
        const r = await cli(argv, { tty, colour: tty });
        expect(r.code).toBe(code);
        expectSafe(r.stdout);
        expectSafe(r.stderr);
        // What was escaped is shown, not dropped; a newline in a name forges no line. (The
        // unknown-team error quotes its close matches as JSON strings: their escapes read \u001b.)
        expect(r.stdout + r.stderr).toMatch(/\\x1b|\\u001b|\\u202e/);
        expect(r.stdout).not.toMatch(/^FORGED LINE/m);
      },
    );
  }

  it('directory sync --dry-run: the current name from the service is escaped in the plan', async () => {
    const r = await cli(['directory', 'sync', join(dir, 'people.csv'), '--dry-run']);
    expect(r.code).toBe(0);
    expectSafe(r.stdout);
    expectSafe(r.stderr);
    expect(r.stdout).toContain('Grace\\x1b]8;;https://evil.example\\x1b\\Hopper');
  });

  it('the aligned columns count the escapes: the e-mails of a team line up', async () => {
    const r = await cli(['check']);
    const [owner, ...details] = r.stdout.trimEnd().split('\n');
    expect(owner).toContain('Grace\\x1b]8;;');
    expect(details).toHaveLength(2);
    expect(details[0]!.indexOf('grace@')).toBe(details[1]!.indexOf('admin'));
  });

  for (const tty of [false, true]) {
    it(`an error quoting the service's text is escaped, and coloured only by the CLI (${tty ? 'terminal' : 'pipe'})`, async () => {
      failing = true;
      try {
        const r = await cli(['teams'], { tty, colour: tty });
        expect(r.code).not.toBe(0);
        expectSafe(r.stderr);
        expect(r.stderr).toContain('Database down\\x1b[2J\\x07\\r\\u202eforged');
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
        if (tty) expect(r.stderr).toMatch(/^\x1b\[1m\x1b\[31merror:/);
        else expect(r.stderr.startsWith('error: ')).toBe(true);
      } finally {
        failing = false;
      }
    });
  }

  it('on-call watch: each change is a JSON line with the same value and nothing raw', async () => {
    const state = join(dir, 'watch.json');
    const first = await cli(['on-call', 'watch', '--once', '--state', state]);
    expect(first).toMatchObject({ code: 0, stdout: '' });
    onCall = false;
    try {
      const second = await cli(['on-call', 'watch', '--once', '--state', state]);
      expect(second.code).toBe(0);
      expectSafe(second.stdout);
      const lines = second.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'on_call_ended', team: { name: TEAM }, user: { name: PERSON, email: EMAIL } });
    } finally {
      onCall = true;
    }
  });

  it('--json keeps the text as the service sent it, every control written as a JSON escape (nothing raw for a terminal)', async () => {
    const teams = await cli(['teams', '--json']);
    expect(teams.json().teams[0].name).toBe(TEAM);
    const onCall = await cli(['on-call', '--json']);
    expect(onCall.json().teams[0].onCall[0]).toMatchObject({ name: PERSON, email: EMAIL });
    const me = await cli(['check', '--json']);
    expect(me.json()).toMatchObject({ user: { role: ROLE }, organization: { name: ORG } });
    for (const run of [teams, onCall, me]) expectSafe(run.stdout);
    expect(onCall.stdout).toContain('\\u202egnp.exe');
    failing = true;
    try {
      const error = await cli(['teams', '--json']);
      expect(error.errorJson().error.message).toContain(SERVICE_ERROR);
      expectSafe(error.stderr);
    } finally {
      failing = false;
    }
  });

  // util-linux's script(1) runs the command on a real pseudo-terminal: the CLI sees a TTY on
  // stdout and stderr, as in a person's shell, and colours its own "error:". The terminal
  // driver turns each \n into \r\n (termios ONLCR), undone here before the check.
  it.each([
    ['on-call', false],
    ['teams', true],
  ] as const)('the real binary on a pseudo-terminal (%s): nothing raw, colour its own', async (command, fails) => {
    const bin = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));
    failing = fails;
    try {
      const shown = await new Promise<string>((resolve) => {
        execFile(
          'script',
          ['-q', '-e', '-c', `${process.execPath} ${bin} ${command}`, '/dev/null'],
          { env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', PAGERLY_API_KEY: 'terminal-test-key-0123456789', PAGERLY_BASE_URL: service.url } },
          (_error, stdout) => resolve(stdout.replace(/\r\n/g, '\n')),
        );
      });
      expectSafe(shown);
      if (fails) expect(shown).toMatch(/\x1b\[31merror:|\x1b\[1m\x1b\[31merror:/);
      else expect(shown.split('\n')[0]).toBe('Platform\\x1b]52;c;cm0gLXJmIH4K\\x07\\nFORGED LINE');
      expect(shown).not.toContain('terminal-test-key');
    } finally {
      failing = false;
    }
  });

  it('the real binary on a pipe escapes the same way', async () => {
    const bin = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));
    const r = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [bin, 'on-call'],
        { env: { PATH: process.env.PATH ?? '', PAGERLY_API_KEY: 'terminal-test-key-0123456789', PAGERLY_BASE_URL: service.url } },
        (_error, stdout, stderr) => resolve({ stdout, stderr }),
      );
    });
    expectSafe(r.stdout);
    expectSafe(r.stderr);
    expect(r.stdout.split('\n')[0]).toBe('Platform\\x1b]52;c;cm0gLXJmIH4K\\x07\\nFORGED LINE');
  });
});
