import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closedPort } from '../support/loopback-server.ts';
import { KEYS, run, startCliSandbox, type CliSandbox } from './support.ts';

// Real HTTP against the sandbox on loopback; this file must not import nock.

let s: CliSandbox;
beforeAll(async () => {
  s = await startCliSandbox();
});
afterAll(() => s.close());

describe('pagerly check', () => {
  it('says whose key it is', async () => {
    const r = await s.cli(['check']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Grace Hopper (Acme)');
    expect(r.stdout).toMatch(/role\s+admin/);
  });

  it("--json: the service's answer", async () => {
    const r = await s.cli(['check', '--json'], { key: KEYS.user });
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({
      valid: true,
      user: { id: 'usr_alan', name: 'Alan Turing', email: 'alan@acme.example', role: 'user' },
      organization: { id: 'org_acme', name: 'Acme' },
    });
  });

  it('takes the key from --api-key before the environment', async () => {
    const r = await s.cli(['--api-key', KEYS.user, 'check'], { key: KEYS.wrong });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Alan Turing (Acme)');
  });
});

describe('pagerly check proves both bases', () => {
  it('fails with the base URL at the rotations address, naming the flag (the key check alone answers there)', async () => {
    const r = await run(['--base-url', `${s.url}/pagerly`, 'check'], { env: { PAGERLY_API_KEY: KEYS.admin } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${s.url}/pagerly/pagerly/o/zapier/allteams (HTTP 404)`);
    expect(r.stderr).toContain('Check --base-url (or PAGERLY_BASE_URL): it is the address of the Pagerly API');
  });

  it('names --rotations-base-url when it is given and nothing answers there', async () => {
    const r = await s.cli(['--rotations-base-url', `${s.url}/nowhere`, 'check']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Check --rotations-base-url (or PAGERLY_ROTATIONS_BASE_URL)');
  });
});

describe('pagerly teams', () => {
  it('lists the teams, aligned', async () => {
    const r = await s.cli(['teams']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Platform  team_platform\nPayments  team_payments\nMobile    team_mobile\n');
  });

  it('--json: {"teams": [...]}', async () => {
    const r = await s.cli(['teams', '--json']);
    expect(r.json()).toEqual({
      teams: [
        { id: 'team_platform', name: 'Platform' },
        { id: 'team_payments', name: 'Payments' },
        { id: 'team_mobile', name: 'Mobile' },
      ],
    });
  });
});

describe('pagerly on-call', () => {
  it('without --team: one section per team, nobody on call said so', async () => {
    const r = await s.cli(['on-call'], { key: KEYS.user });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'Platform',
        '  Alan Turing        alan@acme.example',
        'Payments',
        '  Katherine Johnson  katherine@acme.example',
        '  Grace Hopper       grace@acme.example',
        'Mobile',
        '  (nobody on call)',
        '',
      ].join('\n'),
    );
  });

  it("--team: that team's people (names match ignoring case)", async () => {
    const r = await s.cli(['on-call', '--team', 'payments']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Katherine Johnson  katherine@acme.example\nGrace Hopper       grace@acme.example\n');
  });

  it('--team of a team with nobody on call', async () => {
    const r = await s.cli(['on-call', '--team', 'Mobile']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Nobody is on call in Mobile.\n');
  });

  it('--json: the documented shape, with team ids for every team', async () => {
    const r = await s.cli(['on-call', '--json']);
    const doc = r.json();
    expect(doc.teams.map((t: any) => [t.id, t.name, t.onCall.map((u: any) => u.id)])).toEqual([
      ['team_platform', 'Platform', ['usr_alan']],
      ['team_payments', 'Payments', ['usr_katherine', 'usr_grace']],
      ['team_mobile', 'Mobile', []],
    ]);
    expect(doc.teams[1].onCall[0]).toEqual({ id: 'usr_katherine', name: 'Katherine Johnson', email: 'katherine@acme.example', imageurl: null });
  });

  it("a team that does not exist: exit 1, the service's words", async () => {
    const r = await s.cli(['on-call', '--team', 'Nope']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No team named "Nope"');
  });
});

describe('pagerly incident', () => {
  it('create prints only the id on stdout (capturable), what was created on stderr', async () => {
    const r = await s.cli(['incident', 'create', '--title', 'Deploy failed', '--severity', 'P2', '--team', 'platform', '--description', 'build 42']);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(r.stdout).toBe(`${id}\n`);
    expect(s.sandbox.world.incidents.get(id)).toMatchObject({
      title: 'Deploy failed',
      severity: 'P2',
      teamname: 'Platform',
      description: 'build 42',
      status: 'triggered',
    });
    expect(r.stderr).toBe('Created incident "Deploy failed" (P2, triggered, team Platform); its id:\n');
  });

  it('update by that id keeps what it is not given; --json prints the whole incident', async () => {
    const id = (await s.cli(['incident', 'create', '--title', 'Disk full'])).stdout.trim();
    const r = await s.cli(['incident', 'update', id, '--title', 'Disk full on db-1', '--status', 'resolved', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.json()).toMatchObject({ id, title: 'Disk full on db-1', severity: 'P3', status: 'resolved', teamname: null });
  });

  it('update of an unknown id: exit 1', async () => {
    const r = await s.cli(['incident', 'update', 'inc_nope', '--title', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No incident with id "inc_nope"');
  });

  it("an error names the command's own action, not all that POST /o/incident does", async () => {
    const created = await s.cli(['incident', 'create', '--title', 'x', '--team', 'No such team']);
    expect(created.code).toBe(1);
    expect(created.stderr).toContain('Could not create an incident');
    expect(created.stderr).not.toContain('or update one');
    const updated = await s.cli(['incident', 'update', 'inc_nope', '--title', 'x']);
    expect(updated.stderr).toContain('Could not update an incident by its id');
    expect(updated.stderr).not.toContain('create');
  });

  it('bad usage is exit 2 and sends nothing: missing --title, unknown status, empty title', async () => {
    const before = s.sandbox.world.incidents.size;
    for (const argv of [
      ['incident', 'create'],
      ['incident', 'update', 'inc_0001', '--title', 'x', '--status', 'closed'],
      ['incident', 'create', '--title', '  '],
    ]) {
      const r = await s.cli(argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(s.sandbox.world.incidents.size).toBe(before);
  });
});

describe('pagerly directory', () => {
  it('get: the entry, aligned', async () => {
    const r = await s.cli(['directory', 'get', 'Katherine@acme.example'], { key: KEYS.user });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Katherine Johnson\n  email  katherine@acme.example\n  phone  +14155550103\n  role   user\n  id     usr_katherine\n');
  });

  it('get: no entry is exit 1; not an e-mail is exit 2', async () => {
    expect((await s.cli(['directory', 'get', 'nobody@acme.example'])).code).toBe(1);
    const bad = await s.cli(['directory', 'get', 'not-an-email']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('email must be an e-mail address');
  });

  it('set creates, phone and role change, set replaces, remove removes', async () => {
    const created = await s.cli(['directory', 'set', 'barbara@acme.example', '--name', 'Barbara Liskov', '--phone', '+1 (415) 555-0199', '--json']);
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({ email: 'barbara@acme.example', name: 'Barbara Liskov', phone: '+14155550199', role: 'user' });

    const phone = await s.cli(['directory', 'phone', 'barbara@acme.example', '+14155550198']);
    expect(phone.code).toBe(0);
    expect(phone.stdout).toMatch(/phone\s+\+14155550198/);
    expect(phone.stderr).toBe('Changed the phone number of barbara@acme.example.\n');

    const role = await s.cli(['directory', 'role', 'barbara@acme.example', 'admin']);
    expect(role.code).toBe(0);
    expect(role.stdout).toMatch(/role\s+admin/);

    const replaced = await s.cli(['directory', 'set', 'barbara@acme.example', '--name', 'Barbara H. Liskov']);
    expect(replaced.code).toBe(0);
    expect(replaced.stdout.startsWith('Barbara H. Liskov\n')).toBe(true);
    expect(replaced.stdout).toMatch(/phone\s+\(none\)/); // an omitted phone is cleared
    expect(replaced.stdout).toMatch(/role\s+admin/); // an omitted role is kept

    const removed = await s.cli(['directory', 'remove', 'barbara@acme.example', '--json']);
    expect(removed.code).toBe(0);
    expect(removed.json()).toEqual({ email: 'barbara@acme.example', removed: true });
    expect((await s.cli(['directory', 'remove', 'barbara@acme.example'])).code).toBe(1);
  });

  it('a bad phone, or a role that cannot be set, is exit 2 before sending', async () => {
    const phone = await s.cli(['directory', 'phone', 'katherine@acme.example', '555-1234']);
    expect(phone.code).toBe(2);
    expect(phone.stderr).toContain('international format');
    const role = await s.cli(['directory', 'role', 'katherine@acme.example', 'owner']);
    expect(role.code).toBe(2);
    expect(role.stderr).toContain('Allowed choices are admin, user');
  });

  it('the owner is protected: exit 4', async () => {
    for (const argv of [
      ['directory', 'remove', 'ada@acme.example'],
      ['directory', 'role', 'ada@acme.example', 'user'],
      ['directory', 'set', 'ada@acme.example', '--name', 'Ada'],
    ]) {
      const r = await s.cli(argv);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('owner cannot be');
    }
  });

  it('a non-admin key: admin-only commands are exit 4, with the reason', async () => {
    const r = await s.cli(['directory', 'remove', 'hedy@acme.example'], { key: KEYS.user });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Only an org admin can remove a directory entry');
    expect(s.sandbox.world.people.has('usr_hedy')).toBe(true);
    // The phone is anyone's to change.
    expect((await s.cli(['directory', 'phone', 'hedy@acme.example', '+14155550111'], { key: KEYS.user })).code).toBe(0);
  });
});

describe('exit codes of each error class, and --json errors', () => {
  it('no key at all: 3, and it says how to give one', async () => {
    const r = await s.cli(['teams'], { key: null });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('PAGERLY_API_KEY');
  });

  it('a refused key: 3 (the documented 400 "API Key is not valid")', async () => {
    const r = await s.cli(['teams', '--json'], { key: KEYS.wrong });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.errorJson()).toEqual({ error: expect.objectContaining({ code: 'authentication', retryable: false, exitCode: 3, status: 400 }) });
    expect(r.errorJson().error.message).toContain('API Key is not valid');
  });

  it('a 5xx: 75 (temporary), retryable in JSON', async () => {
    s.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 503, body: '[{"Error":"maintenance"}]' });
    const r = await s.cli(['teams', '--retries', '0', '--json']);
    expect(r.code).toBe(75);
    expect(r.errorJson().error).toMatchObject({ code: 'server', retryable: true, exitCode: 75, status: 503 });
  });

  it('a 5xx is retried for a read, and the later success wins', async () => {
    s.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 503, body: '[]' });
    const r = await s.cli(['teams']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Platform');
  });

  it('rate limited: 75 with the Retry-After', async () => {
    s.sandbox.faults.inject({ path: '/o/test/apikey', status: 429, body: '[{"Error":"slow down"}]', headers: { 'retry-after': '30' } });
    const r = await s.cli(['check', '--retries', '0', '--json']);
    expect(r.code).toBe(75);
    expect(r.errorJson().error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 30, retryable: true });
  });

  it('a time-out: 75', async () => {
    s.sandbox.faults.inject({ path: '/o/test/apikey', status: 200, body: '{}', delayMs: 400 });
    const r = await s.cli(['check', '--timeout', '0.1', '--retries', '0']);
    expect(r.code).toBe(75);
    expect(r.stderr).toMatch(/did not answer within 0.1 s.*safe to retry/);
  });

  it('nothing listening: 75 (network)', async () => {
    const r = await run(['--base-url', await closedPort(), '--retries', '0', 'teams', '--json'], { env: { PAGERLY_API_KEY: KEYS.admin } });
    expect(r.code).toBe(75);
    expect(r.errorJson().error.code).toBe('network');
  });

  it('an answer that is not JSON: 1', async () => {
    s.sandbox.faults.inject({ path: '/o/currentusers', status: 200, body: '<html>Maintenance</html>', contentType: 'text/html' });
    const r = await s.cli(['on-call', '--team', 'Platform', '--json']);
    expect(r.code).toBe(1);
    expect(r.errorJson().error.code).toBe('invalid_response');
  });

  it('a base URL that is not one: 2', async () => {
    const r = await run(['--base-url', 'ftp://example.com', 'teams'], { env: { PAGERLY_API_KEY: KEYS.admin } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--base-url (or PAGERLY_BASE_URL) must be an http or https URL');
  });

  it('PAGERLY_BASE_URL and PAGERLY_ROTATIONS_BASE_URL are read from the environment', async () => {
    const r = await run(['teams'], {
      env: { PAGERLY_API_KEY: KEYS.admin, PAGERLY_BASE_URL: 'http://127.0.0.1:9', PAGERLY_ROTATIONS_BASE_URL: `${s.url}/pagerly` },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Platform');
  });
});

describe('the key never appears', () => {
  it('not even when the service echoes it in an error text, human or JSON', async () => {
    s.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 400, body: `[{"Error":"API Key ${KEYS.admin} is not valid"}]`, times: 2 });
    const human = await s.cli(['teams']);
    expect(human.code).toBe(3);
    expect(human.stderr).toContain('[redacted]');
    const json = await s.cli(['teams', '--json']);
    expect(json.errorJson().error.message).toContain('[redacted]');
    s.sandbox.faults.inject({ path: '/o/incident', status: 500, body: `internal error for key ${KEYS.admin}`, contentType: 'text/plain' });
    const server = await s.cli(['incident', 'create', '--title', 'x']);
    expect(server.code).toBe(5); // a create that met a 500 may have been done
    expect(server.stderr).toContain('[redacted]');
  });

  it('not even in a usage error that repeats an argument', async () => {
    const r = await s.cli([KEYS.admin]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command '[redacted]'");
    const flag = await run(['--api-key', KEYS.user, KEYS.user]);
    expect(flag.code).toBe(2);
  });
});
