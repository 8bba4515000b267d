import { describe, expect, it } from '@jest/globals';
import { InvalidFileError, SyncFailedError, UsageError } from '../../cli/cli-errors.ts';
import { exitCodeFor, mostSevereExitCode } from '../../cli/exit-codes.ts';
import { decide } from '../../shared/directory-sync/plan.ts';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { validateRows, type SyncRow } from '../../shared/directory-sync/validate-rows.ts';
import {
  AuthenticationError,
  InvalidInputError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RequestError,
  ServerError,
  TimeoutError,
} from '../../shared/errors.ts';

const csv = (text: string) => {
  const read = readSyncFile('people.csv', () => text);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return validateRows(read.rows, read.columns, read.problems);
};

describe('exit codes', () => {
  it('one per error class', () => {
    const cases: [unknown, number][] = [
      [new AuthenticationError('x'), 3],
      [new PermissionError('x'), 4],
      [new RateLimitError('x', 5), 75],
      [new ServerError('x'), 75],
      [new NetworkError('x'), 75],
      [new TimeoutError('x'), 75],
      [new NotFoundError('x'), 1],
      [new InvalidResponseError('x'), 1],
      [new RequestError('x'), 1],
      [new InvalidInputError('x', [], 'service'), 1],
      [new InvalidInputError('x', [], 'input'), 2],
      [new UsageError('x'), 2],
      [new InvalidFileError('f', []), 2],
      [new SyncFailedError('x', 4, false), 4],
      [new Error('bug'), 1],
    ];
    expect(cases.map(([error]) => exitCodeFor(error))).toEqual(cases.map(([, code]) => code));
  });

  it('several failures: 3 before 4 before 75 before 1; refused input before sending counts as 1', () => {
    const auth = new AuthenticationError('x');
    const perm = new PermissionError('x');
    const temp = new ServerError('x');
    const other = new NotFoundError('x');
    expect(mostSevereExitCode([])).toBe(0);
    expect(mostSevereExitCode([other, temp, perm, auth])).toBe(3);
    expect(mostSevereExitCode([other, temp, perm])).toBe(4);
    expect(mostSevereExitCode([other, temp])).toBe(75);
    expect(mostSevereExitCode([other])).toBe(1);
    expect(mostSevereExitCode([new InvalidInputError('x', [], 'input')])).toBe(1);
  });
});

describe('validating rows', () => {
  it('normalises: trimmed e-mail, E.164 phone, empty phone = none, empty role = keep, remove words', () => {
    const result = csv(
      'Email , NAME,phone,role,remove\n alex@acme.example ,Alex, +1 (415) 555-0123 ,ADMIN,\nsam@acme.example,Sam,,,no\nkim@acme.example,,,,X\nlee@acme.example,Lee,,user,0\n',
    );
    expect(result).toEqual({ ok: false, problems: [{ row: 2, field: 'role', problem: 'must be one of: admin, user (not "ADMIN")' }] });
    const ok = csv(
      'email,name,phone,role,remove\n alex@acme.example ,Alex, +1 (415) 555-0123 ,admin,\nsam@acme.example,Sam,,,no\nkim@acme.example,,,,X\nlee@acme.example,Lee,,user,0\n',
    );
    expect(ok).toEqual({
      ok: true,
      rows: [
        { row: 2, email: 'alex@acme.example', remove: false, name: 'Alex', phone: '+14155550123', role: 'admin' },
        { row: 3, email: 'sam@acme.example', remove: false, name: 'Sam', phone: null, role: undefined },
        { row: 4, email: 'kim@acme.example', remove: true },
        { row: 5, email: 'lee@acme.example', remove: false, name: 'Lee', phone: null, role: 'user' },
      ],
    });
  });

  it('a file of removals needs no name column; rows are numbered by line, even after a multi-line value', () => {
    expect(csv('email,remove\na@acme.example,yes\n')).toEqual({ ok: true, rows: [{ row: 2, email: 'a@acme.example', remove: true }] });
    const result = csv('email,name\n"a@acme.example","Two\nLines"\n\nnot-an-email,B\n');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => p.row)).toEqual([5]);
  });

  it('a missing name column is told once, for the header', () => {
    const result = csv('email,phone\na@acme.example,+14155550123\nb@acme.example,+14155550124\n');
    expect(!result.ok && result.problems).toEqual([
      { row: 1, problem: 'the header has no "name" column, which every row that does not remove an entry needs' },
    ]);
  });

  it('a trailing comma (an unnamed, empty column) is harmless; an unnamed column with values is not', () => {
    expect(csv('email,name,\na@acme.example,A,\n').ok).toBe(true);
    const result = csv('email,name,\na@acme.example,A,oops\n');
    expect(!result.ok && result.problems).toEqual([{ row: 1, problem: 'column 3 has no name in the header' }]);
  });
});

describe('planning a row', () => {
  const current = { id: 'usr_1', email: 'a@acme.example', name: 'Alex', phone: '+14155550123', role: 'admin', imageurl: null };
  const row = (fields: Partial<Extract<SyncRow, { remove: false }>>): SyncRow => ({
    row: 2,
    email: 'a@acme.example',
    remove: false,
    name: 'Alex',
    phone: undefined,
    role: undefined,
    ...fields,
  });

  it('unchanged when name, phone and role agree (phone and role only when the file says)', () => {
    expect(decide(row({}), current).kind).toBe('unchanged');
    expect(decide(row({ phone: '+14155550123', role: 'admin' }), current).kind).toBe('unchanged');
  });

  it('an update lists each change and keeps the phone when the file says nothing about it', () => {
    const planned = decide(row({ name: 'Alex M.', role: 'user' }), current);
    expect(planned).toMatchObject({
      kind: 'update',
      changes: [
        { field: 'name', from: 'Alex', to: 'Alex M.' },
        { field: 'role', from: 'admin', to: 'user' },
      ],
      body: { email: 'a@acme.example', name: 'Alex M.', phone: '+14155550123', role: 'user' },
    });
  });

  it('an empty phone clears it: the upsert is sent without one', () => {
    const planned = decide(row({ phone: null }), current);
    expect(planned).toMatchObject({ kind: 'update', changes: [{ field: 'phone', from: '+14155550123', to: null }] });
    expect(planned.kind === 'update' && 'phone' in planned.body).toBe(false);
  });

  it('create when absent; remove or already absent for removal rows', () => {
    expect(decide(row({ phone: '+14155550100' }), undefined)).toMatchObject({
      kind: 'create',
      body: { email: 'a@acme.example', name: 'Alex', phone: '+14155550100' },
    });
    expect(decide({ row: 3, email: 'a@acme.example', remove: true }, current).kind).toBe('remove');
    expect(decide({ row: 3, email: 'a@acme.example', remove: true }, undefined).kind).toBe('absent');
  });
});
