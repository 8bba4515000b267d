import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { assumptions } from '../../shared/assumptions.ts';
import { endpointList, endpoints } from '../../shared/catalog/endpoints.ts';
import { specFile } from '../../make-app/schema-check/beside-checkout.ts';

// The spec lives beside the checkout (../shared), as it does in CI.
const spec = readFileSync(specFile, 'utf8');

/** Rows of the spec's endpoint table, plus the key check of section 5. */
function specEndpoints(): { method: string; path: string; adminOnly: boolean }[] {
  const rows = [...spec.matchAll(/^\| (GET|POST|DELETE) \| `([^`?]+)(?:\?[^`]*)?` \| [^|]+ \| (yes|no)/gm)];
  const table = rows.map(([, method, path, admin]) => ({ method: method!, path: path!, adminOnly: admin === 'yes' }));
  const keyCheck = /`GET (\/o\/test\/apikey)`/.exec(spec);
  return keyCheck ? [...table, { method: 'GET', path: keyCheck[1]!, adminOnly: false }] : table;
}

describe('endpoint catalog', () => {
  it("holds every endpoint of the spec, with the spec's admin marking", () => {
    const fromSpec = specEndpoints();
    expect(fromSpec).toHaveLength(11);
    for (const { method, path, adminOnly } of fromSpec) {
      const match = endpointList.find((e) => e.method === method && e.path === path);
      expect({ method, path, found: match !== undefined, adminOnly: match?.adminOnly }).toEqual({ method, path, found: true, adminOnly });
    }
  });

  it('marks as undocumented exactly the endpoints the spec does not list', () => {
    const listed = new Set(specEndpoints().map((e) => `${e.method} ${e.path}`));
    for (const endpoint of endpointList) {
      expect({ key: endpoint.key, documented: listed.has(`${endpoint.method} ${endpoint.path}`) }).toEqual({
        key: endpoint.key,
        documented: endpoint.documented,
      });
    }
  });

  it('puts allteams and currentusers under the rotations base, everything else under the API base', () => {
    const rotations = endpointList
      .filter((e) => e.base === 'rotations')
      .map((e) => e.path)
      .sort();
    expect(rotations).toEqual(['/o/currentusers', '/o/zapier/allteams']);
  });

  it('names each endpoint by its own key and refers only to known assumptions', () => {
    const known = new Set<string>(assumptions.map((a) => a.id));
    for (const [key, endpoint] of Object.entries(endpoints)) {
      expect(endpoint.key).toBe(key);
      for (const id of endpoint.assumptions) expect(known.has(id)).toBe(true);
    }
  });

  it('has no assumption with a duplicate id or an empty reason', () => {
    const ids = assumptions.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const a of assumptions) expect(a.why.length).toBeGreaterThan(20);
  });
});
