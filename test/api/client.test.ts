import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from '../../client/index.ts';
import type { ApiItem, SurfaceReport } from '../../scripts/api/model.ts';
import { declarationItems, extractClientWithMarkdown } from '../../scripts/api/surfaces/client.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';

/**
 * The client's report holds what the built package's declarations really export (API
 * Extractor's own report lists the same declarations; the client made at run time has the same
 * methods; each method's input has the keys of its endpoint's schema), and a change to a copy
 * of a declaration (an input key renamed, an optional input made required, an output field
 * removed) changes the items it should and no other.
 */

let client: SurfaceReport;
let markdown: string;
beforeAll(async () => {
  ({ report: client, markdown } = await extractClientWithMarkdown());
}, 120_000);

const byId = (items: readonly ApiItem[]) => new Map(items.map((i) => [i.id, i]));

describe('the client report against the built package', () => {
  it('has each declaration API Extractor reports, and no other', () => {
    const reported = client.items.filter((i) => i.kind === 'export').map((i) => i.id.slice('export/'.length));
    const inMarkdown = [...markdown.matchAll(/^export (?:declare )?(?:abstract )?(?:class|interface|type|function|const|enum|namespace) (\w+)/gm)].map(
      (m) => m[1]!,
    );
    expect(reported.sort()).toEqual([...new Set(inMarkdown)].sort());
    expect(reported).toEqual(expect.arrayContaining(['createClient', 'PagerlyClient', 'ClientSettings', 'PagerlyError', 'RateLimitError']));
  });

  it("has the methods a client made at run time has, each endpoint's input keys as its schema has them", () => {
    const items = byId(client.items);
    const methods = client.items.filter((i) => i.kind === 'method' && i.id.startsWith('export/PagerlyClient/member/')).map((i) => i.id.split('/')[3]!);
    expect(methods.sort()).toEqual(Object.keys(createClient({ apiKey: 'k' })).sort());
    let fields = 0;
    for (const [key, endpoint] of Object.entries(endpoints)) {
      const shape = (endpoint.input as unknown as { def: { shape?: Record<string, { _zod: { optin?: string } }> } }).def.shape ?? {};
      for (const [field, schema] of Object.entries(shape)) {
        fields += 1;
        expect({ key, field, required: items.get(`export/PagerlyClient/member/${key}/input/${field}`)?.facts['required'] }).toEqual({
          key,
          field,
          required: schema._zod.optin !== 'optional',
        });
      }
    }
    expect(fields).toBeGreaterThan(15);
    expect(items.get('export/PagerlyClient/member/createOrUpdateIncident/input/status')?.facts['choices']).toEqual(['acknowledged', 'resolved', 'triggered']);
    expect(items.get('export/PagerlyClient/member/listOnCallUsers/output/[].email')?.facts).toEqual({ type: 'string', required: true });
    expect(items.get('export/ClientSettings/member/apiKey')?.facts).toEqual({ type: 'string', required: true });
    expect(items.get('export/PagerlyErrorCode/values')?.facts['choices']).toContain('rate_limited');
    expect(items.get('export/RateLimitError/member/retryAfterSeconds')?.facts).toMatchObject({ type: 'number|undefined', required: true });
  });

  it('is sorted and names no temporary folder', () => {
    const list = client.items.map((i) => i.id);
    expect(list).toEqual([...list].sort());
    expect(JSON.stringify(client)).not.toMatch(/pagerly-client-api-|\/tmp\//);
    expect(markdown).not.toMatch(/pagerly-client-api-|\/tmp\//);
    expect(markdown).toContain('## API Report File for "@pagerly/client"');
  });
});

describe('a change to a copy of a declaration', () => {
  const declarations = (client: string) => {
    const folder = mkdtempSync(join(tmpdir(), 'pagerly-client-variant-'));
    try {
      writeFileSync(join(folder, 'index.d.ts'), `export type Severity = 'P1' | 'P2';\nexport type PagerlyClient = { ${client} };\n`);
      return byId(declarationItems(join(folder, 'index.d.ts'), new Set(['PagerlyClient', 'Severity'])));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
  const method = 'export/PagerlyClient/member/createOrUpdateIncident';
  const before = declarations('createOrUpdateIncident(input: { title: string; severity?: Severity }): Promise<{ id?: string; severity?: string }>');

  it('an input key renamed, made required, or an output field removed each moves its own item', () => {
    expect(before.get(`${method}/input/title`)?.facts).toEqual({ type: 'string', required: true });
    expect(before.get(`${method}/input/severity`)?.facts).toEqual({ type: 'string', required: false, choices: ['P1', 'P2'] });

    const renamed = declarations('createOrUpdateIncident(input: { headline: string; severity?: Severity }): Promise<{ id?: string; severity?: string }>');
    expect(renamed.has(`${method}/input/title`)).toBe(false);
    expect(renamed.get(`${method}/input/headline`)?.facts['required']).toBe(true);

    const required = declarations('createOrUpdateIncident(input: { title: string; severity: Severity }): Promise<{ id?: string; severity?: string }>');
    expect(required.get(`${method}/input/severity`)?.facts['required']).toBe(true);
    expect(required.get(`${method}/input/title`)).toEqual(before.get(`${method}/input/title`));

    const removed = declarations('createOrUpdateIncident(input: { title: string; severity?: Severity }): Promise<{ id?: string }>');
    expect(before.has(`${method}/output/severity`)).toBe(true);
    expect(removed.has(`${method}/output/severity`)).toBe(false);
    expect(removed.get(`${method}/output/id`)).toEqual(before.get(`${method}/output/id`));
  }, 60_000);
});

it('does not read a stale build', () => {
  // The extractor builds its own copy; a dist/client/ from an older build plays no part.
  expect(JSON.stringify(client)).not.toContain(fileURLToPath(new URL('../../dist/', import.meta.url)));
});
