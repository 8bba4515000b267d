import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoKeys, HOUR, startSandbox, type Running } from './support.ts';

describe('sandbox: POST /o/incident', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.sandbox.close());

  const post = (body: unknown, key = demoKeys.acmeUser) => s.call('/o/incident', { method: 'POST', key, body });

  it('creates an incident: 201, defaults P3 and triggered, times from the sandbox clock', async () => {
    const answer = await post({ title: 'Checkout is down' });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({
      id: 'inc_0001',
      title: 'Checkout is down',
      severity: 'P3',
      status: 'triggered',
      description: null,
      teamname: null,
      created_at: '2026-11-02T08:00:00.000Z',
      updated_at: '2026-11-02T08:00:00.000Z',
    });
  });

  it('takes every optional field, a label of its own as severity, and the team in its own spelling', async () => {
    const answer = await post({ title: 'Slow payouts', severity: 'SEV-1', description: 'p99 over 5 s', teamname: ' payments ', status: 'acknowledged' });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ id: 'inc_0002', severity: 'SEV-1', description: 'p99 over 5 s', teamname: 'Payments', status: 'acknowledged' });
  });

  it('updates by id: 200, changes what it is given, keeps the rest', async () => {
    await s.sandbox.clock.advance(HOUR);
    const answer = await post({ id: 'inc_0001', title: 'Checkout is down (EU only)', status: 'resolved' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      id: 'inc_0001',
      title: 'Checkout is down (EU only)',
      severity: 'P3',
      status: 'resolved',
      description: null,
      teamname: null,
      created_at: '2026-11-02T08:00:00.000Z',
      updated_at: '2026-11-02T09:00:00.000Z',
    });
    expect(s.sandbox.world.incidents.get('inc_0001')?.status).toBe('resolved');
  });

  it('answers 404 for an unknown id', async () => {
    const answer = await post({ id: 'inc_0999', title: 'x' });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual([{ Error: 'No incident with id "inc_0999" in this organization' }]);
  });

  it("never shows or changes another organization's incident", async () => {
    const answer = await post({ id: 'inc_0001', title: 'hijacked' }, demoKeys.globexAdmin);
    expect(answer.status).toBe(404);
    expect(s.sandbox.world.incidents.get('inc_0001')?.title).toBe('Checkout is down (EU only)');
  });

  it('answers 404 for an unknown team', async () => {
    const answer = await post({ title: 'x', teamname: 'Operations' });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual([{ Error: 'No team named "Operations" in this organization' }]);
  });

  it.each([
    [{}, 'title is required'],
    [{ title: 42 }, 'title must be a string, not a number'],
    [{ title: '   ' }, 'title is required'],
    [{ title: 'x', status: 'open' }, 'status must be one of: triggered, acknowledged, resolved'],
    [{ title: 'x', severity: 'P'.repeat(33) }, 'severity is longer than 32 characters'],
    [{ title: 'x'.repeat(256), severity: '' }, 'title is longer than 255 characters; severity must not be empty'],
  ])('refuses %j with 400: %s', async (body, text) => {
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual([{ Error: text }]);
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    const invalid = await s.call('/o/incident', { method: 'POST', key: demoKeys.acmeUser, rawBody: '{"title": "x"' });
    expect([invalid.status, invalid.json]).toEqual([400, [{ Error: 'The request body is not valid JSON' }]]);
    const list = await s.call('/o/incident', { method: 'POST', key: demoKeys.acmeUser, rawBody: '[{"title": "x"}]' });
    expect([list.status, list.json]).toEqual([400, [{ Error: 'The request body must be a JSON object' }]]);
    const empty = await s.call('/o/incident', { method: 'POST', key: demoKeys.acmeUser, rawBody: '' });
    expect([empty.status, empty.json]).toEqual([400, [{ Error: 'The request body is empty; send a JSON object' }]]);
  });
});
