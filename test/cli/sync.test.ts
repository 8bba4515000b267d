import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { acmeDirectory, fixture, KEYS, person, run, startCliSandbox, syncRefusedUnsent, type CliSandbox } from './support.ts';

// Real HTTP against a fresh sandbox per test (syncs change its world); no nock here.

let s: CliSandbox;
beforeEach(async () => {
  s = await startCliSandbox();
});
afterEach(() => s.close());

const entry = (email: string) => {
  const p = person(s.sandbox, email);
  return p && { name: p.name, phone: p.phone, role: p.role };
};

describe('directory sync: a good file', () => {
  it('CSV: creates, updates with field diffs, removes, leaves unchanged, skips the already absent', async () => {
    const r = await s.cli(['directory', 'sync', fixture('people.csv')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(''); // not a terminal: no progress bar
    expect(r.stdout).toBe(
      [
        '  created  row 2  new.hire@acme.example   name "New Hire", phone +14155550199',
        '  updated  row 3  katherine@acme.example  phone: +14155550103 → +14155550177',
        '  updated  row 4  alan@acme.example       name: "Alan Turing" → "Alan M. Turing"; role: user → admin',
        '  removed  row 6  hedy@acme.example       Hedy Lamarr',
        `Synced ${fixture('people.csv')}: 1 created, 2 updated, 1 removed, 1 unchanged, 1 already absent, 0 failed.`,
        '',
      ].join('\n'),
    );
    expect(entry('new.hire@acme.example')).toEqual({ name: 'New Hire', phone: '+14155550199', role: 'user' });
    expect(entry('katherine@acme.example')).toEqual({ name: 'Katherine Johnson', phone: '+14155550177', role: 'user' });
    expect(entry('alan@acme.example')).toEqual({ name: 'Alan M. Turing', phone: '+442079460102', role: 'admin' });
    expect(entry('grace@acme.example')).toEqual({ name: 'Grace Hopper', phone: '+14155550101', role: 'admin' });
    expect(entry('hedy@acme.example')).toBeUndefined();

    // The same file again: everything is as it says.
    const again = await s.cli(['directory', 'sync', fixture('people.csv')]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('0 created, 0 updated, 0 removed, 4 unchanged, 2 already absent, 0 failed.');
  });

  it('JSON: the same rules, a null phone clears it, letter case of e-mails does not matter; --json report', async () => {
    const r = await s.cli(['directory', 'sync', fixture('people.json'), '--json', '--concurrency', '2']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = r.json();
    expect(doc).toMatchObject({ file: fixture('people.json'), dryRun: false, failures: [] });
    expect(doc.summary).toEqual({ created: 1, updated: 2, removed: 1, unchanged: 1, alreadyAbsent: 1, failed: 0, skipped: 0, notSent: 0 });
    expect(doc.rows.map((row: any) => [row.row, row.email, row.action, row.outcome])).toEqual([
      [1, 'edsger@acme.example', 'update', 'updated'],
      [2, 'Katherine@Acme.example', 'unchanged', 'unchanged'],
      [3, 'json.hire@acme.example', 'create', 'created'],
      [4, 'alan@acme.example', 'update', 'updated'],
      [5, 'hedy@acme.example', 'remove', 'removed'],
      [6, 'nobody@acme.example', 'absent', 'absent'],
    ]);
    expect(doc.rows[0].changes).toEqual([{ field: 'name', from: 'Edsger Dijkstra', to: 'Edsger W. Dijkstra' }]);
    expect(doc.rows[3].changes).toEqual([{ field: 'phone', from: '+442079460102', to: null }]);
    expect(entry('edsger@acme.example')).toEqual({ name: 'Edsger W. Dijkstra', phone: '+31205550104', role: 'user' });
    expect(entry('json.hire@acme.example')).toEqual({ name: 'Json Hire', phone: null, role: 'admin' });
    expect(entry('alan@acme.example')).toEqual({ name: 'Alan Turing', phone: null, role: 'user' });
    expect(entry('hedy@acme.example')).toBeUndefined();
  });

  it("a file without a phone column keeps everyone's number; without a role column, everyone's role", async () => {
    const r = await s.cli(['directory', 'sync', fixture('names-only.csv')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('updated  row 2  grace@acme.example  name: "Grace Hopper" → "Grace B. Hopper"');
    expect(entry('grace@acme.example')).toEqual({ name: 'Grace B. Hopper', phone: '+14155550101', role: 'admin' });
  });

  it('a file with another extension is read by its content', async () => {
    const r = await s.cli(['directory', 'sync', fixture('people.txt'), '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('create  row 2  sniffed@acme.example');
  });
});

describe('directory sync --dry-run', () => {
  it('prints the plan and changes nothing', async () => {
    const before = acmeDirectory(s.sandbox);
    const r = await s.cli(['directory', 'sync', fixture('people.csv'), '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `Dry run of ${fixture('people.csv')}: nothing was changed.`,
        '  create  row 2  new.hire@acme.example   name "New Hire", phone +14155550199',
        '  update  row 3  katherine@acme.example  phone: +14155550103 → +14155550177',
        '  update  row 4  alan@acme.example       name: "Alan Turing" → "Alan M. Turing"; role: user → admin',
        '  remove  row 6  hedy@acme.example       Hedy Lamarr',
        '  absent  row 7  gone@acme.example       already absent: nothing to do',
        'Would create 1, update 2, remove 1; 1 unchanged, 1 already absent.',
        'Only the people in the file were looked at: the API cannot list the whole directory, so entries not in the file are left alone.',
        '',
      ].join('\n'),
    );
    expect(acmeDirectory(s.sandbox)).toEqual(before);
  });

  it('--json: the plan, without outcomes', async () => {
    const before = acmeDirectory(s.sandbox);
    const doc = (await s.cli(['directory', 'sync', fixture('people.json'), '--dry-run', '--json'])).json();
    expect(doc.dryRun).toBe(true);
    expect(doc.summary).toEqual({ toCreate: 1, toUpdate: 2, toRemove: 1, unchanged: 1, alreadyAbsent: 1, failed: 0, skipped: 0, notLookedUp: 0 });
    expect(doc.rows.every((row: any) => !('outcome' in row))).toBe(true);
    expect(acmeDirectory(s.sandbox)).toEqual(before);
  });

  it("works with a non-admin key (the lookups are anyone's)", async () => {
    const r = await s.cli(['directory', 'sync', fixture('people.csv'), '--dry-run'], { key: KEYS.user });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Would create 1, update 2, remove 1');
  });
});

describe('directory sync: a bad file is exit 2, every problem listed, nothing sent', () => {
  /** The fixture `file`, refused with no request sent. */
  const syncAgainstCounter = (file: string, json = false) => syncRefusedUnsent(fixture(file), json ? ['--json'] : []);

  it('bad rows in CSV: e-mail, phone, role, missing fields, duplicate, remove-and-set, remove value', async () => {
    const r = await syncAgainstCounter('bad-rows.csv');
    expect(r.stderr).toBe(
      [
        `error: ${fixture('bad-rows.csv')} has 8 problems; nothing was changed.`,
        '  row 3: email must be an e-mail address, e.g. alex@example.com (not "not-an-email")',
        '  row 4: phone must be in international format with country code, e.g. +14155550123 (not "555-1234")',
        '  row 5: role must be one of: admin, user (not "owner")',
        '  row 6: email is required',
        '  row 7: name is required',
        '  row 8: email OK@ACME.EXAMPLE is also on row 2 (e-mails are compared ignoring letter case); keep one row per person',
        '  row 9: removes the entry but also sets name; leave name, phone and role empty on a row that removes',
        '  row 10: remove must be yes, true, 1 or x to remove the entry, or empty (not "perhaps")',
        '',
      ].join('\n'),
    );
  });

  it('bad rows in JSON, as one JSON error with every problem', async () => {
    const r = await syncAgainstCounter('bad-rows.json', true);
    const { error } = r.errorJson();
    expect(error).toMatchObject({ code: 'invalid_file', retryable: false, exitCode: 2 });
    expect(error.problems).toEqual([
      { row: 1, field: 'phone', problem: 'must be a string, not a number' },
      { row: 2, problem: 'must be an object with the keys email, name, phone, role, remove' },
      { row: 3, problem: 'has an unknown key "phon"; the keys are email, name, phone, role, remove' },
      { row: 4, field: 'role', problem: 'must be one of: admin, user (not "superuser")' },
      { row: 5, field: 'email', problem: 'ALEX@acme.example is also on row 1 (e-mails are compared ignoring letter case); keep one row per person' },
    ]);
  });

  it('missing and unknown columns', async () => {
    const r = await syncAgainstCounter('missing-columns.csv');
    expect(r.stderr).toContain('row 1: unknown column "mail"');
    expect(r.stderr).toContain('row 1: unknown column "phon"');
    expect(r.stderr).toContain('row 1: the header has no "email" column');
  });

  it('rows with too many or too few values', async () => {
    const r = await syncAgainstCounter('ragged.csv');
    expect(r.stderr).toContain('row 2: has 4 values but the header has 3 columns');
    expect(r.stderr).toContain('row 3: has 2 values but the header has 3 columns');
  });

  // Commas, semicolons and tabs are found from the header (sync-encodings.test.ts); any other separator gets a hint.
  it('a file separated by another character gets a hint', async () => {
    expect((await syncAgainstCounter('pipes.csv')).stderr).toContain(
      'unknown column "email|name|phone" (is the file separated by another character? Columns are separated by commas, semicolons or tabs)',
    );
  });

  it.each([
    ['empty.csv', 'the file is empty'],
    ['header-only.csv', 'the file has no rows, only a header'],
    ['malformed.csv', 'the file is not valid CSV: Quote Not Closed'],
    ['malformed.json', 'the file is not valid JSON'],
    ['not-array.json', 'the file must hold a JSON array of objects'],
    ['no-such-file.csv', 'the file cannot be read: there is no such file'],
  ])('%s', async (file, problem) => {
    const r = await syncAgainstCounter(file);
    expect(r.stderr).toContain(problem);
  });

  it('a bad file is told before a missing key', async () => {
    const r = await run(['directory', 'sync', fixture('bad-rows.csv')]);
    expect(r.code).toBe(2);
  });
});

describe('directory sync: partial failures', () => {
  it('a 500 on one change: that row listed, the rest applied, exit 75', async () => {
    s.sandbox.faults.inject({ method: 'POST', path: '/o/oncalluser', status: 500, body: '[{"Error":"Internal error"}]' });
    const r = await s.cli(['directory', 'sync', fixture('people.csv'), '--concurrency', '1', '--retries', '0']);
    expect(r.code).toBe(75);
    expect(r.stdout).toContain('Synced');
    expect(r.stdout).toContain('0 created, 2 updated, 1 removed, 1 unchanged, 1 already absent, 1 failed.');
    expect(r.stdout).toMatch(
      /Failed \(1\):\n {2}row 2 {2}new\.hire@acme\.example {2}create: \[server\] The service failed to create or replace a directory entry \(HTTP 500: Internal error\)/,
    );
    expect(r.stdout).toContain('Some failures were temporary: running the same file again is safe');
    expect(r.stderr).toBe('error: 1 of 6 rows failed (each is listed in the report); the other rows were applied. (temporary: safe to retry)\n');
    expect(entry('new.hire@acme.example')).toBeUndefined();
    expect(entry('katherine@acme.example')?.phone).toBe('+14155550177');
    expect(entry('hedy@acme.example')).toBeUndefined();

    // Running it again finishes the job.
    const again = await s.cli(['directory', 'sync', fixture('people.csv')]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('1 created, 0 updated, 0 removed, 3 unchanged, 2 already absent, 0 failed.');
  });

  it("the owner's entry: a permission failure (exit 4) that outranks a 5xx and a refused input; --json lists all", async () => {
    // Faults meet the changes in the order they are sent (concurrency 1, row order): row 2 gets the 400,
    // row 3 the 500; row 4 (Ada, the owner) is refused by the service itself; row 5 goes through.
    const r = await syncWithFaults(
      ['owner-and-others.csv'],
      [
        { status: 400, body: '[{"Error":"name is too long for the directory"}]' },
        { status: 500, body: '[{"Error":"Internal error"}]' },
      ],
    );
    expect(r.code).toBe(4);
    const doc = r.json();
    expect(doc.summary).toEqual({ created: 0, updated: 1, removed: 0, unchanged: 0, alreadyAbsent: 0, failed: 3, skipped: 0, notSent: 0 });
    expect(doc.failures.map((f: any) => [f.row, f.email, f.action, f.code, f.exitCode])).toEqual([
      [2, 'katherine@acme.example', 'update', 'invalid_input', 1],
      [3, 'edsger@acme.example', 'update', 'server', 75],
      [4, 'ada@acme.example', 'update', 'permission', 4],
    ]);
    expect(doc.failures[2].message).toContain('owner cannot be replaced');
    expect(r.errorJson().error).toMatchObject({ code: 'sync_failed', exitCode: 4, retryable: false });
    expect(entry('alan@acme.example')?.name).toBe('Alan M. Turing');
    expect(entry('ada@acme.example')?.role).toBe('owner');
    expect(entry('katherine@acme.example')?.name).toBe('Katherine Johnson');
  });

  it('75 outranks 1', async () => {
    const r = await syncWithFaults(
      ['people.csv'],
      [
        { status: 404, body: '[{"Error":"gone"}]' },
        { status: 502, body: 'Bad Gateway', contentType: 'text/plain' },
      ],
    );
    expect(r.code).toBe(75);
    expect(r.json().failures.map((f: any) => f.code)).toEqual(['not_found', 'server']);
  });

  it('a non-admin key: every change refused, each listed, exit 4; the lookups still done', async () => {
    const before = acmeDirectory(s.sandbox);
    const r = await s.cli(['directory', 'sync', fixture('people.csv')], { key: KEYS.user });
    expect(r.code).toBe(4);
    const failures = r.stdout.split('Failed (4):\n')[1]!.trim().split('\n');
    expect(failures).toHaveLength(4);
    expect(failures.map((line) => line.trim().split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'row 2 new.hire@acme.example',
      'row 3 katherine@acme.example',
      'row 4 alan@acme.example',
      'row 6 hedy@acme.example',
    ]);
    for (const line of failures) expect(line).toContain('[permission] Only an org admin can');
    expect(acmeDirectory(s.sandbox)).toEqual(before);
  });

  it('a refused key stops at the first lookup: exit 3, no report', async () => {
    const r = await s.cli(['directory', 'sync', fixture('people.csv'), '--json'], { key: KEYS.wrong });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.errorJson().error.code).toBe('authentication');
  });

  it('a lookup that fails: the row is listed and not changed; the rest is applied', async () => {
    s.sandbox.faults.inject({ method: 'GET', path: '/o/oncalluser', status: 503, body: '[]' });
    const r = await s.cli(['directory', 'sync', fixture('people.csv'), '--concurrency', '1', '--retries', '0']);
    expect(r.code).toBe(75);
    expect(r.stdout).toMatch(/row 2 {2}new\.hire@acme\.example {2}could not look up the entry: \[server\]/);
    expect(r.stdout).toContain('0 created, 2 updated, 1 removed, 1 unchanged, 1 already absent, 1 failed.');
  });

  async function syncWithFaults(argv: string[], faults: { status: number; body: string; contentType?: string }[]) {
    // Lookups are GETs; these faults only meet the changes (POST), in the order they are sent.
    for (const fault of faults) s.sandbox.faults.inject({ method: 'POST', path: '/o/oncalluser', ...fault });
    return s.cli(['directory', 'sync', ...argv.map(fixture), '--concurrency', '1', '--retries', '0', '--json']);
  }
});

describe('directory sync: progress', () => {
  it('draws a bar on a terminal (stderr) and clears it; the report is unchanged', async () => {
    const r = await s.cli(['directory', 'sync', fixture('people.csv')], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Looking up \[░+\] 0\/6/);
    expect(r.stderr).toMatch(/Syncing \[░+\] 0\/4/);
    expect(r.stderr).toMatch(/Syncing \[█+\] 4\/4/);
    expect(r.stderr.endsWith('\u001b[2K')).toBe(true); // the line is cleared: nothing of the bar is left
    expect(r.stdout).toContain('1 created, 2 updated, 1 removed');
  });

  it('--concurrency out of range is bad usage', async () => {
    for (const n of ['0', '33', 'many']) expect((await s.cli(['directory', 'sync', fixture('people.csv'), '--concurrency', n])).code).toBe(2);
  });
});
