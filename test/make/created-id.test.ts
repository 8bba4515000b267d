import { afterEach, describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { appFromFiles } from '../../make-app/interpreter/runner/app-folder.ts';
import { makeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { MAX_WHOLE_ANSWER_CHARS, passedOnText } from '../../shared/http/response.ts';
import { createdResult } from '../../shared/operations/created-id.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { faultServer, json, type Behaviour, type FaultServer } from '../support/fault-server.ts';

/**
 * The shared rule "the status is the service's word" (shared/operations/created-id.ts), which
 * Make's IML cannot import: the generator writes the id search into the action modules'
 * `temp` and `output` (write-answer-iml.ts), and here the runner holds the modules to the same
 * answers as the code: the bundle is what `createdResult` gives. `valid` decides only for a 2xx
 * or 3xx (Custom apps › Error handling), so a 4xx or 5xx stays Make's error.
 */
const app = appFromFiles(generateMakeApp());
const KEY = 'make-created-id-key-5e1c';
const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function run(moduleId: string, parameters: Record<string, unknown>, answer: Behaviour) {
  const server = await faultServer([answer]);
  servers.push(server);
  const runner = makeRunner(app, { origin: { from: DEFAULT_BASE_URL, to: server.url }, timeoutMs: 2_000 });
  return runner.module(moduleId, { connection: { apiKey: KEY }, parameters });
}

const text = (status: number, body: string, headers: Record<string, string> = {}): Behaviour => ({ kind: 'answer', status, body, headers });

describe("Make create module: the bundle is the shared rule's result", () => {
  it.each([
    ['200 {}', json(200, {}), {}],
    ['201 with an empty JSON body', text(201, '', { 'content-type': 'application/json' }), {}],
    ['204', text(204, ''), {}],
    ['200 with a blank id', json(200, { id: ' ', title: 'Disk full' }), { id: ' ', title: 'Disk full' }],
    ['200 the id in data', json(200, { data: { id: 'INC-7' } }), { data: { id: 'INC-7' } }],
    ['200 the id in incident, as incidentId', json(200, { incident: { incidentId: 'INC-7' } }), { incident: { incidentId: 'INC-7' } }],
    ['200 the id as incident_id, a note of its own', json(200, { incident_id: 'INC-7', note: 'paged' }), { incident_id: 'INC-7', note: 'paged' }],
    ['200 an id that is an object', json(200, { id: { value: 'INC-7' } }), { id: { value: 'INC-7' } }],
    ['200 an id of false, the id in Location', json(200, { id: false }, { location: '/o/incident/INC-8' }), { id: false }],
    ['201 a list', json(201, [{ incident_id: 'INC-7' }]), [{ incident_id: 'INC-7' }]],
    ['201 an empty list', json(201, []), []],
    ['201 a list too big to pass on whole', json(201, [{ id: 'INC-7', log: 'x'.repeat(200_000) }]), [{ id: 'INC-7', log: 'x'.repeat(200_000) }]],
    ['201 text', text(201, 'INC-7', { 'content-type': 'text/plain' }), 'INC-7'],
    ['201 Location with a trailing slash', text(201, '', { location: '/o/incident/INC-7/' }), {}],
    // usableId's hardening, which the IML writes as far as it can (write-answer-iml.ts).
    ['201 an id that is the key', json(201, { id: KEY }), { id: KEY }],
    ['201 an id holding the first 8 characters of the key', json(201, { id: `ref-${KEY.slice(0, 8)}` }), { id: `ref-${KEY.slice(0, 8)}` }],
    [
      '201 an id holding the last 8 characters of the key, URL-encoded',
      json(201, { id: `x${encodeURIComponent(KEY).slice(-8)}` }),
      { id: `x${encodeURIComponent(KEY).slice(-8)}` },
    ],
    ['201 the key as the Location id', text(201, '', { location: `/o/incident/${KEY}` }), {}],
    ['201 an id with a line break inside', json(201, { id: 'INC-7\n::error::forged' }), { id: 'INC-7\n::error::forged' }],
    ['201 an id with ESC', json(201, { id: 'INC-\u001b[31m7' }), { id: 'INC-\u001b[31m7' }],
    ['201 an id with C1 control U+0085', json(201, { id: 'INC-\u00857' }), { id: 'INC-\u00857' }],
    ['201 an id with a bidi override', json(201, { id: 'INC-\u202e7' }), { id: 'INC-\u202e7' }],
    ['201 an id with a trailing line break, trimmed', json(201, { id: 'INC-7\n' }), { id: 'INC-7\n' }],
    ['201 the Location id with an encoded line break', text(201, '', { location: '/o/incident/INC%0A7' }), {}],
    ['201 an id of 256 characters', json(201, { id: 'I'.repeat(256) }), { id: 'I'.repeat(256) }],
    ['201 an id of 257 characters', json(201, { id: 'I'.repeat(257) }), { id: 'I'.repeat(257) }],
    ['201 a Location longer than 8 KiB', text(201, '', { location: `/${'x'.repeat(9000)}/INC-7` }), {}],
    [
      '201 an id number JSON.parse rounds',
      text(201, '{"id":12345678901234567891}', { 'content-type': 'application/json' }),
      JSON.parse('{"id":12345678901234567891}'),
    ],
    [
      '201 a negative id number JSON.parse rounds',
      text(201, '{"id":-9007199254740993}', { 'content-type': 'application/json' }),
      JSON.parse('{"id":-9007199254740993}'),
    ],
    ['201 an id number at 2^53 - 1', text(201, '{"id":9007199254740991}', { 'content-type': 'application/json' }), { id: 9007199254740991 }],
    // 2^53 parses exactly, yet 2^53 + 1 parses to it too: no safe integer, so no id (the bound is strict).
    ['201 an id number at exactly 2^53', text(201, '{"id":9007199254740992}', { 'content-type': 'application/json' }), { id: 2 ** 53 }],
    ['201 an id number with a fraction', json(201, { id: 7.5 }), { id: 7.5 }],
    [
      '201 a rounded id number, the id in Location',
      text(201, '{"id":12345678901234567891}', { 'content-type': 'application/json', location: '/o/incident/INC-8' }),
      JSON.parse('{"id":12345678901234567891}'),
    ],
  ])('%s', async (_name, answer, value) => {
    const bundles = await run('createIncident', { title: 'Disk full' }, answer);
    const status = answer.kind === 'answer' ? answer.status : 0;
    const location = answer.kind === 'answer' ? answer.headers?.location : undefined;
    // As the client passes on an answer too big to pass on whole: an excerpt of its text.
    const body = answer.kind === 'answer' ? answer.body : '';
    const passedOn = body.length > MAX_WHOLE_ANSWER_CHARS ? { passedOn: { answer: passedOnText(body, []) } } : {};
    expect(bundles).toEqual([createdResult('incident', { value, status, location, ...passedOn, secrets: [KEY] })]);
  });

  it.each([
    ['an id too long', 'I'.repeat(257)],
    ['an id with a line break', 'inc_0042\nforged'],
  ])('the update does not name the id it was given when it is %s', async (_name, id) => {
    const bundles = await run('updateIncident', { id, title: 'Disk full' }, json(200, { status: 'resolved' }));
    expect(bundles).toEqual([createdResult('incident', { value: { status: 'resolved' }, status: 200, givenId: id })]);
    expect(bundles[0]).toMatchObject({ id: '' });
  });

  it('an answer with its id is the output, as before', async () => {
    expect(await run('createIncident', { title: 'Disk full' }, json(201, { id: 'inc_0001', title: 'Disk full' }))).toEqual([
      { id: 'inc_0001', title: 'Disk full', note: '' },
    ]);
  });

  it('the update keeps the id it named when the answer leaves it out', async () => {
    const bundles = await run('updateIncident', { id: 'inc_0042', title: 'Disk full' }, json(200, { status: 'resolved' }));
    expect(bundles).toEqual([{ status: 'resolved', id: 'inc_0042', note: '' }]);
  });

  it('a 5xx stays an error: Make decides it before `valid`', async () => {
    await expect(run('createIncident', { title: 'Disk full' }, json(500, [{ Error: 'Database unavailable' }]))).rejects.toMatchObject({
      type: 'ConnectionError',
    });
  });

  it('a directory write answered 200 with HTML is done too, the page passed on as `answer`', async () => {
    const bundles = await run(
      'createDirectoryEntry',
      { email: 'grace@example.com', name: 'Grace', phone: '+14155550123', role: 'user' },
      text(200, '<p>saved</p>', { 'content-type': 'text/html' }),
    );
    expect(bundles).toEqual([{ answer: '<p>saved</p>' }]);
  });
});
