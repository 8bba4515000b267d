import { describe, expect, it } from '@jest/globals';
import { AuthenticationError, InvalidInputError } from '../../shared/errors.ts';
import { buildRequest, urlWithQuery } from '../../shared/http/request.ts';

const KEY = 'test-key-5f3a9c';
const settings = { apiKey: KEY };

describe('buildRequest', () => {
  it('sends the key in X-APIKEY and JSON headers on every request', () => {
    const request = buildRequest('checkApiKey', {}, settings);
    expect(request).toMatchObject({ method: 'GET', url: 'https://api.pagerly.io/o/test/apikey', body: undefined, query: {} });
    expect(request.headers).toMatchObject({ 'X-APIKEY': KEY, Accept: 'application/json' });
    expect(request.headers['Content-Type']).toBeUndefined();
  });

  it('puts allteams and currentusers under the rotations base', () => {
    expect(buildRequest('listTeams', {}, settings).url).toBe('https://api.pagerly.io/pagerly/o/zapier/allteams');
    const onCall = buildRequest('listOnCallUsers', { teamname: ' Platform ' }, settings);
    expect(urlWithQuery(onCall)).toBe('https://api.pagerly.io/pagerly/o/currentusers?teamname=Platform');
  });

  it('honours both base settings and drops trailing slashes', () => {
    const bases = { baseUrl: 'http://127.0.0.1:4010/', rotationsBaseUrl: 'http://127.0.0.1:4010/custom/' };
    expect(buildRequest('checkApiKey', {}, { ...settings, ...bases }).url).toBe('http://127.0.0.1:4010/o/test/apikey');
    expect(buildRequest('listTeams', {}, { ...settings, ...bases }).url).toBe('http://127.0.0.1:4010/custom/o/zapier/allteams');
    expect(buildRequest('listTeams', {}, { ...settings, baseUrl: 'http://localhost:1' }).url).toBe('http://localhost:1/pagerly/o/zapier/allteams');
  });

  it('refuses a base that is not an http URL, saying which setting', () => {
    expect(() => buildRequest('listTeams', {}, { ...settings, baseUrl: 'api.pagerly.io' })).toThrow(/baseUrl must be an http or https URL/);
    expect(() => buildRequest('listTeams', {}, { ...settings, rotationsBaseUrl: 'ftp://x' })).toThrow(/rotationsBaseUrl/);
  });

  it('sends POST fields as a JSON body, leaving out the ones not given', () => {
    const request = buildRequest('createOrUpdateIncident', { title: 'Checkout down', severity: 'P1' }, settings);
    expect(request.method).toBe('POST');
    expect(request.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(request.body!)).toEqual({ title: 'Checkout down', severity: 'P1' });
    expect(request.query).toEqual({});
  });

  it('sends DELETE fields in the query and path parameters in the path, encoded', () => {
    const removal = buildRequest('removeDirectoryEntry', { email: 'a+b@example.com' }, settings);
    expect(urlWithQuery(removal)).toBe('https://api.pagerly.io/o/oncalluser?email=a%2Bb%40example.com');
    const unsubscribe = buildRequest('unsubscribeMakeHook', { id: 'sub/1 2' }, settings);
    expect(unsubscribe.url).toBe('https://api.pagerly.io/o/make/subscribe/sub%2F1%202');
    expect(unsubscribe.query).toEqual({});
  });

  it('normalises phone numbers people type with separators', () => {
    const request = buildRequest('updateDirectoryPhone', { email: 'sam@acme.test', phone: '+1 (415) 555-0123' }, settings);
    expect(JSON.parse(request.body!)).toEqual({ email: 'sam@acme.test', phone: '+14155550123' });
  });

  it('refuses bad input before sending, naming every field to fix', () => {
    const attempt = () => buildRequest('upsertDirectoryEntry', { email: 'not-an-email', name: '', phone: '555-1234' }, settings);
    expect(attempt).toThrow(InvalidInputError);
    try {
      attempt();
    } catch (error) {
      const e = error as InvalidInputError;
      expect(e.source).toBe('input');
      expect(e.problems.map((p) => p.field).sort()).toEqual(['email', 'name', 'phone']);
      expect(e.message).toMatch(/^Cannot create or replace a directory entry: /);
      expect(e.message).toMatch(/phone must be in international format with country code, e\.g\. \+14155550123/);
    }
  });

  it('says a required field is required and names wrong types plainly', () => {
    expect(() => buildRequest('createOrUpdateIncident', {}, settings)).toThrow(/title is required/);
    expect(() => buildRequest('createOrUpdateIncident', { title: 42 }, settings)).toThrow(/title must be a string, not a number/);
    expect(() => buildRequest('changeDirectoryRole', { email: 'a@b.co', role: 'owner' }, settings)).toThrow(/role must be one of: admin, user/);
    expect(() => buildRequest('subscribeZapierHook', { url: 'javascript:alert(1)' }, settings)).toThrow(/url must be an http or https URL/);
  });

  it('refuses a missing or malformed key without repeating it', () => {
    expect(() => buildRequest('listTeams', {}, { apiKey: '  ' })).toThrow(AuthenticationError);
    try {
      buildRequest('listTeams', {}, { apiKey: 'abc\ndef-secret' });
      throw new Error('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(String((error as Error).message)).not.toContain('def-secret');
    }
  });
});
