import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { offlineNock, unmatchedRequests } from '../support/offline-nock.ts';
import { readRecording } from '../recordings/recording-file.ts';
import { KEYS, run } from './support.ts';

// The commands against the recorded answers of the API (test/recordings/): the requests the
// command line sends must be exactly the recorded ones, and every recorded one must be sent.

offlineNock();

let scopes: nock.Scope[] = [];
let unmatched: ReturnType<typeof unmatchedRequests>;
beforeEach(() => {
  unmatched = unmatchedRequests();
});
afterEach(() => {
  unmatched.stop();
  scopes = [];
});

/** Serves the scenarios' recorded answers, in order; gives the recorded base URL. */
function replay(...scenarios: string[]): string {
  const recordings = scenarios.map(readRecording);
  for (const recording of recordings) scopes.push(...nock.define(recording.interactions));
  return String(recordings[0]?.interactions[0]?.scope);
}

/** `pagerly --base-url <recorded origin> --retries 0 ...argv` with a key (headers are not recorded). */
const cli = (base: string, argv: string[], key: string = KEYS.admin) => run(['--base-url', base, '--retries', '0', ...argv], { env: { PAGERLY_API_KEY: key } });

function allReplayed(): void {
  for (const scope of scopes) expect(scope.pendingMocks()).toEqual([]);
  expect(unmatched.count).toBe(0);
}

describe('commands on the recordings', () => {
  it('check: the key check, then the team list at the rotations base', async () => {
    const r = await cli(replay('check-api-key', 'list-teams'), ['check']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Grace Hopper (Acme)');
    allReplayed();
  });

  it('check with a refused key: exit 3', async () => {
    const r = await cli(replay('check-api-key-invalid'), ['check', '--json'], KEYS.wrong);
    expect(r.code).toBe(3);
    expect(r.errorJson().error).toMatchObject({ code: 'authentication', status: 400, retryable: false });
    allReplayed();
  });

  it('teams, and an organization without any', async () => {
    expect((await cli(replay('list-teams'), ['teams'])).stdout).toBe('Platform  team_platform\nPayments  team_payments\nMobile    team_mobile\n');
    allReplayed();
    expect((await cli(replay('list-teams-empty'), ['teams'])).stdout).toBe('No teams in this organization.\n');
    allReplayed();
  });

  it('teams with a refused key: exit 3', async () => {
    expect((await cli(replay('list-teams-invalid-key'), ['teams'], KEYS.wrong)).code).toBe(3);
    allReplayed();
  });

  // The team is looked up in the documented team list first, then asked for by its name.
  it('on-call --team: somebody, nobody, no such team', async () => {
    expect((await cli(replay('list-teams', 'on-call-team'), ['on-call', '--team', 'Platform'])).stdout).toBe('Alan Turing  alan@acme.example\n');
    expect((await cli(replay('list-teams', 'on-call-nobody'), ['on-call', '--team', 'Mobile'])).stdout).toBe('Nobody is on call in Mobile.\n');
    allReplayed();
    const unknown = await cli(replay('list-teams'), ['on-call', '--team', 'No Such Team 0451']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No team named "No Such Team 0451"');
    // Close matches only: an organization's whole team list is no error message.
    expect(unknown.stderr).toContain("None of the organization's 3 teams has a close name.");
    expect(unknown.stderr).not.toContain('Payments');
    allReplayed();
  });

  it('incident create, update and resolve through the printed id', async () => {
    const base = replay('incident-create-update-resolve');
    const created = await cli(base, ['incident', 'create', '--title', 'Checkout latency above 2 s', '--severity', 'P2', '--team', 'Platform']);
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect(id).toBe('inc_0001');
    expect((await cli(base, ['incident', 'update', id, '--title', 'Checkout latency above 2 s', '--severity', 'P1'])).stdout).toBe(`${id}\n`);
    const resolved = await cli(base, ['incident', 'update', id, '--title', 'Checkout latency above 2 s', '--status', 'resolved', '--json']);
    expect(resolved.json()).toMatchObject({ id, severity: 'P1', status: 'resolved', teamname: 'Platform' });
    allReplayed();
  });

  it('incident update of an unknown id: exit 1', async () => {
    expect((await cli(replay('incident-update-unknown'), ['incident', 'update', 'inc_does_not_exist', '--title', 'x'])).code).toBe(1);
    allReplayed();
  });

  it('directory get, and get of nobody (exit 1)', async () => {
    const found = await cli(replay('directory-get'), ['directory', 'get', 'katherine@acme.example', '--json']);
    expect(found.json()).toMatchObject({ email: 'katherine@acme.example', phone: '+14155550103', role: 'user' });
    expect((await cli(replay('directory-get-missing'), ['directory', 'get', 'nobody.0451@example.com'])).code).toBe(1);
    allReplayed();
  });

  it('directory set, phone, role, set again, remove, then not found twice', async () => {
    const base = replay('directory-lifecycle');
    const email = 'new.hire@acme.example';
    const steps: [string[], number][] = [
      [['directory', 'set', email, '--name', 'New Hire', '--phone', '+1 415 555 0199'], 0],
      [['directory', 'phone', email, '+14155550198'], 0],
      [['directory', 'role', email, 'admin'], 0],
      [['directory', 'set', email, '--name', 'New Hire (Platform)'], 0],
      [['directory', 'remove', email], 0],
      [['directory', 'get', email], 1],
      [['directory', 'remove', email], 1],
    ];
    const codes = [];
    for (const [argv] of steps) {
      // Before a removal the command asks whose key it is (never its own entry without --force).
      if (argv[1] === 'remove') replay('check-api-key');
      codes.push((await cli(base, argv)).code);
    }
    expect(codes).toEqual(steps.map(([, code]) => code));
    allReplayed();
  });

  it('directory changes with a non-admin key: exit 4 each', async () => {
    const base = replay('directory-admin-refusals');
    const codes = [];
    for (const argv of [
      ['directory', 'set', 'new.hire@acme.example', '--name', 'New Hire'],
      ['directory', 'role', 'katherine@acme.example', 'admin'],
      ['directory', 'remove', 'katherine@acme.example', '--force'],
    ]) {
      const r = await cli(base, argv, KEYS.user);
      codes.push(r.code);
      expect(r.stderr).toContain('Only an org admin can');
    }
    expect(codes).toEqual([4, 4, 4]);
    allReplayed();
  });

  it('rate limited is exit 75, a create that met a 500 exit 5 (it may have been done); HTML and truncated JSON are exit 1', async () => {
    const limited = await cli(replay('rate-limited'), ['teams', '--json']);
    expect([limited.code, limited.errorJson().error.retryAfterSeconds]).toEqual([75, 30]);
    expect((await cli(replay('server-error'), ['incident', 'create', '--title', 'Disk full on db-1'])).code).toBe(5);
    expect((await cli(replay('list-teams', 'html-instead-of-json'), ['on-call', '--team', 'Platform'])).code).toBe(1);
    expect((await cli(replay('truncated-json'), ['teams'])).code).toBe(1);
    allReplayed();
  });

  it('a key the service echoes back is redacted from every output', async () => {
    nock('https://api.pagerly.io')
      .get('/o/test/apikey')
      .reply(400, [{ Error: `API Key ${KEYS.admin} is not valid` }]);
    nock('https://api.pagerly.io').get('/pagerly/o/zapier/allteams').reply(502, `upstream refused key=${KEYS.admin}`);
    const auth = await cli('https://api.pagerly.io', ['check', '--json']);
    expect(auth.code).toBe(3);
    expect(auth.errorJson().error.message).toContain('API Key [redacted] is not valid');
    const server = await cli('https://api.pagerly.io', ['teams']);
    expect(server.code).toBe(75);
    expect(server.stderr).toContain('key=[redacted]');
  });
});
