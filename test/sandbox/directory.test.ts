import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoKeys, INVALID_KEY_BODY, startSandbox, type Running } from './support.ts';

const ADMIN_ONLY = 'Only an org admin can do this; this API key was created by someone who is not an org admin.';

describe('sandbox: the on-call user directory', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.sandbox.close());

  const get = (email: string, key = demoKeys.acmeUser) => s.call(`/o/oncalluser?email=${encodeURIComponent(email)}`, { key });
  const upsert = (body: unknown, key = demoKeys.acmeAdmin) => s.call('/o/oncalluser', { method: 'POST', key, body });
  const phone = (body: unknown, key = demoKeys.acmeUser) => s.call('/o/oncalluser/phone', { method: 'POST', key, body });
  const role = (body: unknown, key = demoKeys.acmeAdmin) => s.call('/o/oncalluser/role', { method: 'POST', key, body });
  const remove = (email: string, key = demoKeys.acmeAdmin) => s.call(`/o/oncalluser?email=${encodeURIComponent(email)}`, { method: 'DELETE', key });

  it('reads an entry by e-mail, ignoring letter case', async () => {
    const answer = await get('Katherine@ACME.example');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      id: 'usr_katherine',
      email: 'katherine@acme.example',
      name: 'Katherine Johnson',
      phone: '+14155550103',
      role: 'user',
      imageurl: null,
    });
  });

  it('answers 404 for an e-mail nobody has', async () => {
    const answer = await get('nobody@acme.example');
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual([{ Error: 'No directory entry for "nobody@acme.example" in this organization' }]);
  });

  it('creates an entry: 201, a new id, role user, phone cleaned to E.164', async () => {
    const answer = await upsert({ email: 'barbara@acme.example', name: 'Barbara Liskov', phone: '+1 (415) 555-0199' });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ id: 'usr_0001', email: 'barbara@acme.example', name: 'Barbara Liskov', phone: '+14155550199', role: 'user', imageurl: null });
  });

  it('replaces an entry: 200, name set, omitted phone cleared, omitted role kept', async () => {
    await role({ email: 'barbara@acme.example', role: 'admin' });
    const answer = await upsert({ email: 'BARBARA@acme.example', name: 'Barbara H. Liskov' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ id: 'usr_0001', email: 'barbara@acme.example', name: 'Barbara H. Liskov', phone: null, role: 'admin', imageurl: null });
    const demoted = await upsert({ email: 'barbara@acme.example', name: 'Barbara Liskov', role: 'user' });
    expect(demoted.json.role).toBe('user');
  });

  // The one address rule (shared/schemas/email-address.ts): what it takes, the sandbox keeps and finds.
  it.each(['x&y@acme.example', "o'brien@acme.example", 'zoë@exämple.de', '名前@例え.jp', '"a@b"@acme.example'])(
    'creates, finds and removes the entry of %s',
    async (address) => {
      const created = await upsert({ email: address, name: 'Taken Address' });
      expect([created.status, created.json.email]).toEqual([201, address]);
      const found = await get(address);
      expect([found.status, found.json.email]).toEqual([200, address]);
      expect((await remove(address)).status).toBe(200);
    },
  );

  it('updates a phone with any key of the organization', async () => {
    const answer = await phone({ email: 'alan@acme.example', phone: '+44 20 7946 0999' });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ id: 'usr_alan', phone: '+442079460999' });
  });

  it.each([
    [{ email: 'alan@acme.example', phone: '020 7946 0999' }, 'phone must be in international format with country code, e.g. +14155550123'],
    [{ email: 'alan@acme.example', phone: '+44 20 7946 0999 ext 1' }, 'phone must be in international format with country code, e.g. +14155550123'],
    [{ email: 'alan@acme.example' }, 'phone is required'],
    [{ email: 'not-an-email', phone: '+14155550123' }, 'email must be an e-mail address, e.g. alex@example.com'],
    [{ phone: 14155550123 }, 'email is required; phone must be a string, not a number'],
  ])('refuses the phone update %j with 400', async (body, text) => {
    const answer = await phone(body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual([{ Error: text }]);
  });

  it('changes a role: 200 with the entry; owner is not a role to give', async () => {
    const answer = await role({ email: 'katherine@acme.example', role: 'admin' });
    expect([answer.status, answer.json.role]).toEqual([200, 'admin']);
    const owner = await role({ email: 'katherine@acme.example', role: 'owner' });
    expect([owner.status, owner.json]).toEqual([400, [{ Error: 'role must be one of: admin, user' }]]);
    await role({ email: 'katherine@acme.example', role: 'user' });
  });

  it('refuses the three admin-only calls to a key whose person is not an admin', async () => {
    const answers = [
      await upsert({ email: 'x@acme.example', name: 'X' }, demoKeys.acmeUser),
      await role({ email: 'alan@acme.example', role: 'admin' }, demoKeys.acmeUser),
      await remove('hedy@acme.example', demoKeys.acmeUser),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.json).toEqual([{ Error: ADMIN_ONLY }]);
    }
    expect(s.sandbox.world.people.get('usr_alan')?.role).toBe('user');
    expect(s.sandbox.world.people.has('usr_hedy')).toBe(true);
  });

  it('lets the owner act as an admin', async () => {
    const answer = await role({ email: 'hedy@acme.example', role: 'user' }, demoKeys.acmeOwner);
    expect(answer.status).toBe(200);
  });

  it('protects the owner: no replacing, no role change, no removal (403); a phone update is fine', async () => {
    const refusals = [
      await upsert({ email: 'ada@acme.example', name: 'Ada' }),
      await role({ email: 'ada@acme.example', role: 'user' }),
      await remove('ada@acme.example'),
    ];
    for (const answer of refusals) {
      expect(answer.status).toBe(403);
      expect(answer.json[0].Error).toMatch(/^The organization's owner cannot be/);
    }
    expect(s.sandbox.world.people.get('usr_ada')).toMatchObject({ name: 'Ada Lovelace', role: 'owner' });
    expect((await phone({ email: 'ada@acme.example', phone: '+14155550177' })).status).toBe(200);
  });

  it("keeps organizations apart: another organization's e-mail is 404 for every call", async () => {
    const globex = demoKeys.globexAdmin;
    expect((await get('alan@acme.example', globex)).status).toBe(404);
    expect((await phone({ email: 'alan@acme.example', phone: '+14155550100' }, globex)).status).toBe(404);
    expect((await role({ email: 'alan@acme.example', role: 'admin' }, globex)).status).toBe(404);
    expect((await remove('alan@acme.example', globex)).status).toBe(404);
    // Creating that e-mail in Globex makes a Globex entry and leaves Acme's alone.
    const created = await upsert({ email: 'alan@acme.example', name: 'Another Alan' }, globex);
    expect(created.status).toBe(201);
    expect(created.json.id).not.toBe('usr_alan');
    expect(s.sandbox.world.people.get('usr_alan')).toMatchObject({ name: 'Alan Turing', orgId: 'org_acme' });
  });

  it('removes an entry: 200 {email, removed}; the person leaves their rotations and their key stops working', async () => {
    expect((await s.call('/pagerly/o/currentusers?teamname=Platform', { key: demoKeys.acmeAdmin })).json.map((u: { id: string }) => u.id)).toEqual([
      'usr_alan',
    ]);
    expect((await s.call('/o/test/apikey', { key: demoKeys.acmeUser })).status).toBe(200);

    const answer = await remove('Alan@acme.example');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ email: 'alan@acme.example', removed: true });

    expect((await get('alan@acme.example', demoKeys.acmeAdmin)).status).toBe(404);
    expect((await remove('alan@acme.example')).status).toBe(404);
    expect(s.sandbox.world.rotations.get('rot_platform_daily')?.participants).toEqual(['usr_edsger', 'usr_hedy']);
    const platform = await s.call('/pagerly/o/currentusers?teamname=Platform', { key: demoKeys.acmeAdmin });
    expect(platform.json.map((u: { id: string }) => u.id)).not.toContain('usr_alan');
    const dead = await s.call('/o/test/apikey', { key: demoKeys.acmeUser });
    expect([dead.status, dead.text]).toEqual([400, INVALID_KEY_BODY]);
  });

  it('accepts a DELETE that says content-type: application/json without a body', async () => {
    const answer = await s.call('/o/oncalluser?email=hedy@acme.example', {
      method: 'DELETE',
      key: demoKeys.acmeAdmin,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
  });
});
