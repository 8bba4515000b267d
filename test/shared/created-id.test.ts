import { describe, expect, it } from '@jest/globals';
import { createClient } from '../../shared/client.ts';
import type { HttpResponse } from '../../shared/http/types.ts';
import { MAX_PASSED_ON_CHARS } from '../../shared/http/response.ts';
import { createdIdIn, createdResult, locationId, noIdNote } from '../../shared/operations/created-id.ts';

/**
 * The status is the service's word (assumption `created-id`): the one search for a create's id,
 * and the typed client applying it to whatever a 2xx brings.
 */
describe('the id search', () => {
  it.each([
    ['the top-level id', { id: 'INC-7' }, 'INC-7'],
    ['incident_id', { incident_id: 'INC-7' }, 'INC-7'],
    ['incidentId, a number', { incidentId: 7 }, '7'],
    ['id before incident_id', { incident_id: 'B', id: 'A' }, 'A'],
    ['inside data', { data: { id: 'INC-7' } }, 'INC-7'],
    ['inside result', { result: { incident_id: 'INC-7' } }, 'INC-7'],
    ['inside incident', { incident: { incidentId: 'INC-7' } }, 'INC-7'],
    ['the top level before a wrapper', { id: 'A', data: { id: 'B' } }, 'A'],
    ['data before result', { result: { id: 'B' }, data: { id: 'A' } }, 'A'],
    ["a list's first element", [{ id: 'INC-7' }, { id: 'INC-8' }], 'INC-7'],
    ["a list's first element, wrapped", [{ result: { id: 'INC-7' } }], 'INC-7'],
    ['trimmed', { id: '  INC-7 ' }, 'INC-7'],
  ])('%s', (_name, answer, id) => {
    expect(createdIdIn(answer, 'incident')).toBe(id);
  });

  it.each([
    ['{}', {}],
    ['an empty id', { id: '' }],
    ['a blank id: the first present candidate decides', { id: '   ', incident_id: 'INC-7' }],
    ['an id that is an object', { id: { value: 'INC-7' } }],
    ['an id of false', { id: false }],
    ['two wrappers deep', { data: { result: { id: 'INC-7' } } }],
    ['a wrapper by another name', { payload: { id: 'INC-7' } }],
    ["a list's second element", [{}, { id: 'INC-7' }]],
    ['text', 'INC-7'],
    ['nothing', undefined],
  ])('no id: %s', (_name, answer) => {
    expect(createdIdIn(answer, 'incident')).toBeUndefined();
  });

  it.each([
    ['/o/incident/INC-7', 'INC-7'],
    ['https://api.example/o/incident/INC-7?view=full#top', 'INC-7'],
    ['/incidents/INC%2F7', 'INC/7'],
    ['/incidents/%E0%A4%A', '%E0%A4%A'],
    ['INC-7', 'INC-7'],
  ])('Location %s names %s', (location, id) => {
    expect(locationId(location)).toBe(id);
  });

  it.each([['/o/incident/'], [''], ['/o/incident/%20']])('Location %j names none', (location) => {
    expect(locationId(location)).toBeUndefined();
  });

  it('the body comes before Location, Location before nothing', () => {
    expect(createdIdIn({ id: 'A' }, 'incident', '/o/incident/B')).toBe('A');
    expect(createdIdIn({ id: ' ' }, 'incident', '/o/incident/B')).toBe('B');
  });
});

describe('the result of a create', () => {
  it('keeps a JSON object whole, its id as text', () => {
    expect(createdResult('incident', { value: { incident_id: 7, title: 'Disk full' }, status: 201 })).toEqual({
      incident_id: 7,
      title: 'Disk full',
      id: '7',
      note: '',
    });
  });

  it('puts anything else under answer, with an empty id and the note', () => {
    expect(createdResult('incident', { value: 'INC-7', status: 201 })).toEqual({ answer: 'INC-7', id: '', note: noIdNote('incident', 201) });
    expect(createdResult('incident', { value: undefined, status: 204 })).toEqual({ id: '', note: noIdNote('incident', 204) });
  });

  it('an update keeps the id it named', () => {
    expect(createdResult('incident', { value: { status: 'resolved' }, status: 200, givenId: 'inc_0042' })).toEqual({
      status: 'resolved',
      id: 'inc_0042',
      note: '',
    });
  });
});

describe('the typed client: a 2xx is done, whatever the body', () => {
  const KEY = 'created-id-test-key-3f9a1c';
  const clientAnswering = (answer: HttpResponse) => createClient({ apiKey: KEY, baseUrl: 'https://api.example', transport: { send: async () => answer } });

  it('a cut-off JSON body: passed on as its text, no id', async () => {
    const incident = await clientAnswering({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"id":"INC-7","title":"Di',
    }).createOrUpdateIncident({
      title: 'Disk full',
    });
    expect(incident).toEqual({ answer: '{"id":"INC-7","title":"Di', id: '', note: noIdNote('incident', 200) });
  });

  it('a huge text body: passed on cut to the bound, the key taken out', async () => {
    const body = `${KEY} ${'x'.repeat(5 * MAX_PASSED_ON_CHARS)}`;
    const incident = await clientAnswering({ status: 201, headers: { 'content-type': 'text/plain' }, body }).createOrUpdateIncident({ title: 'Disk full' });
    expect(String(incident.answer).length).toBe(MAX_PASSED_ON_CHARS);
    expect(String(incident.answer)).not.toContain(KEY.slice(0, 8));
  });

  it('an empty 201 with Location: the id from its last segment', async () => {
    const incident = await clientAnswering({ status: 201, headers: { location: '/o/incident/INC-7' }, body: '' }).createOrUpdateIncident({
      title: 'Disk full',
    });
    expect(incident).toEqual({ id: 'INC-7', note: '' });
  });

  it.each([
    ['the key', `/o/incident/${KEY}`],
    ['the key percent-encoded', `/o/incident/${encodeURIComponent(KEY).replace(/-/g, '%2D')}`],
    ['a percent-encoded newline', '/o/incident/INC-7%0A::error::forged'],
    ['a percent-encoded ESC', '/o/incident/INC-7%1B%5D52%3Bc%3Bx%07'],
    ['a megabyte segment', `/o/incident/${'7'.repeat(1024 * 1024)}`],
  ])('a hostile Location (%s) names no id', async (_name, location) => {
    const incident = await clientAnswering({ status: 201, headers: { location }, body: '' }).createOrUpdateIncident({ title: 'Disk full' });
    expect(incident).toEqual({ id: '', note: noIdNote('incident', 201) });
  });

  it('a JSON answer that echoes the key: not the id, and taken out of what is passed on', async () => {
    const body = JSON.stringify({ id: KEY, note: `key ${KEY}`, echo: { [KEY]: [KEY] } });
    const incident = await clientAnswering({ status: 201, headers: { 'content-type': 'application/json' }, body }).createOrUpdateIncident({
      title: 'Disk full',
    });
    expect(incident.id).toBe('');
    expect(JSON.stringify(incident)).not.toContain(KEY.slice(0, 8));
    const list = await clientAnswering({ status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify([KEY]) }).createOrUpdateIncident({
      title: 'Disk full',
    });
    expect(JSON.stringify(list)).not.toContain(KEY.slice(0, 8));
  });

  it('a numeric id past 2^53 (rounded by JSON.parse) is no id, never a rounded one', async () => {
    const body = '{"id": 12345678901234567891}';
    const incident = await clientAnswering({ status: 201, headers: { 'content-type': 'application/json' }, body }).createOrUpdateIncident({
      title: 'Disk full',
    });
    expect(incident.id).toBe('');
    expect(incident.note).toBe(noIdNote('incident', 201));
  });

  it('a directory write answered with HTML is done too: the page under answer', async () => {
    const entry = await clientAnswering({ status: 200, headers: { 'content-type': 'text/html' }, body: '<p>saved</p>' }).updateDirectoryPhone({
      email: 'grace@example.com',
      phone: '+14155550123',
    });
    expect(entry).toEqual({ answer: '<p>saved</p>' });
  });

  it('a read answered with HTML is still an invalid answer', async () => {
    await expect(clientAnswering({ status: 200, headers: { 'content-type': 'text/html' }, body: '<p>hi</p>' }).listTeams()).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });
});
