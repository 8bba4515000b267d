import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSandbox, demoKeys, demoSeed, type Sandbox } from '../../sandbox/index.ts';
import { findOrCreates } from '../../zapier-app/find-or-creates.ts';
import { zapierNames } from '../../zapier-app/operation-names.ts';
import { onCallChangedOperation } from '../../zapier-app/triggers/on-call-changed.ts';
import { App, appTester, failureOf, performOf } from './support.ts';

/**
 * The rules of Zapier's publishing review that the definition can be held to offline, on the app
 * from its sources. Source: "Integration check reference",
 * https://docs.zapier.com/platform/publish/integration-checks-reference (check ids below), and
 * "Action", https://docs.zapier.com/platform/build/action. The wording checks (D002, D003, D018,
 * D021 and section 4.1 of the publishing requirements) run on the built app: review.test.ts.
 */
type Definition = {
  key: string;
  noun: string;
  display: { label: string; description: string; hidden?: boolean };
  operation: { sample: unknown; inputFields?: { key: string; type?: string; helpText?: string }[]; outputFields: { key: string; label: string }[] };
};
const all = (kind: 'triggers' | 'creates' | 'searches') => Object.values(App[kind]) as unknown as Definition[];

/**
 * The keys Zapier shows for an item: an object's fields as `parent__child`, the fields of a list
 * of objects as `parent[]child` (line items), anything else under its own key.
 */
const zapierKeysOf = (value: unknown, prefix = ''): string[] =>
  Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
    const list = Array.isArray(v) ? v.filter((e) => e !== null && typeof e === 'object') : [];
    if (list.length > 0) return [...new Set(list.flatMap((element) => zapierKeysOf(element, `${prefix}${key}[]`)))];
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return zapierKeysOf(v, `${prefix}${key}__`);
    return [`${prefix}${key}`];
  });

/** Every path in a value whose value is null. */
const nullsIn = (value: unknown, path = '$'): string[] => {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((element, i) => nullsIn(element, `${path}[${i}]`));
  if (typeof value === 'object') return Object.entries(value as object).flatMap(([key, v]) => nullsIn(v, `${path}.${key}`));
  return [];
};

describe('Zapier publishing review: wording', () => {
  it('one job per action: Create and Update of incidents and directory entries are separate ("Update actions should be separate from create actions")', () => {
    const labels = all('creates').map((c) => c.display.label);
    expect(labels).toEqual(expect.arrayContaining(['Create Incident', 'Update Incident', 'Create Directory Entry', 'Update Directory Entry']));
    expect(labels.filter((label) => / or /i.test(label))).toEqual([]);
    expect(App.creates.create_incident!.operation.inputFields!.map((f) => f.key)).not.toContain('id');
  });

  it('D004 cannot be met for the Incident ID (no endpoint lists incidents): its help says where the ID comes from', () => {
    const id = App.creates.update_incident!.operation.inputFields!.find((f) => f.key === 'id')!;
    expect(id).toMatchObject({ required: true });
    expect(id.helpText).toMatch(/Create Incident step/);
  });
});

describe('Zapier publishing review: samples and output fields', () => {
  it('no sample holds a null value (D012, D024: a sample matches the output field types)', () => {
    for (const definition of [...all('triggers'), ...all('creates'), ...all('searches')]) {
      expect({ key: definition.key, nulls: nullsIn(definition.operation.sample) }).toEqual({ key: definition.key, nulls: [] });
    }
  });

  it('each field a Zap builder sees is declared once: every key of the sample, flattened as Zapier flattens it, is an output field, and no two share a label', () => {
    for (const definition of [...all('triggers'), ...all('creates'), ...all('searches')]) {
      const declared = definition.operation.outputFields.map((f) => f.key);
      // Zapier names a key it was not told about by itself ("team__id" becomes "Team ID"): beside a
      // declared field holding the same value, the builder would see it twice.
      const undeclared = zapierKeysOf(definition.operation.sample).filter((key) => !declared.includes(key));
      const labels = definition.operation.outputFields.map((f) => f.label);
      const repeated = labels.filter((label, i) => labels.indexOf(label) !== i);
      expect({ key: definition.key, undeclared, repeated }).toEqual({ key: definition.key, undeclared: [], repeated: [] });
    }
  });

  it('D015: the search-or-create pairs an existing search with an existing create, keyed by the search', () => {
    const pairs = Object.entries(App.searchOrCreates ?? {});
    expect(pairs.map(([key]) => key)).toEqual(findOrCreates.map((p) => zapierNames[p.search].key));
    for (const [key, pair] of pairs) {
      expect(pair.key).toBe(key);
      expect(App.searches[pair.search]).toBeDefined();
      expect(App.creates[pair.create]).toBeDefined();
      expect(pair.display.label).toBe('Find or Create Directory Entry');
    }
  });

  it('a delete action opens with a copy field saying it cannot be undone ("Delete actions", docs.zapier.com/platform/build/action)', () => {
    const [first] = App.creates.remove_directory_entry!.operation.inputFields!;
    expect(first).toMatchObject({ type: 'copy' });
    expect(first!.helpText).toMatch(/cannot be undone/);
  });
});

describe('against the sandbox over loopback', () => {
  let sandbox: Sandbox;
  const saved = process.env.PAGERLY_BASE_URL;
  const authData = { apiKey: demoKeys.acmeAdmin };

  beforeAll(async () => {
    // Five teams, so the sample limit shows.
    const seed = structuredClone(demoSeed) as typeof demoSeed;
    seed.organizations[0]!.teams.push({ id: 'team_data', name: 'Data' }, { id: 'team_security', name: 'Security' });
    sandbox = await createSandbox({ seed });
    process.env.PAGERLY_BASE_URL = await sandbox.listen();
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.PAGERLY_BASE_URL;
    else process.env.PAGERLY_BASE_URL = saved;
    await sandbox?.close();
  });

  it('performList gives at most 3 items while Zapier loads samples (bundle.meta.isLoadingSample), with the type a live hook has', async () => {
    const items = (await appTester(onCallChangedOperation.performList, {
      authData,
      inputData: {},
      meta: { isLoadingSample: true, limit: -1 },
    })) as Record<string, unknown>[];
    expect(items).toHaveLength(3);
    for (const item of items) expect(item.type).toBe(onCallChangedOperation.sample.type);
  });

  // core's request merge (on unless `merge: false`, prepare-request.js) refuses any request text
  // that looks like a {{bundle.…}} curly; a Zap builder's incident title is the builder's text.
  it('an incident title that looks like a Zapier curly ({{bundle.authData.apiKey}}) is sent as typed, not refused or filled in', async () => {
    const title = 'Template {{bundle.authData.apiKey}} rendered raw in {{process.env.HOME}}';
    // The sandbox answers with the incident as it stored it.
    const created = (await appTester(performOf('creates', 'create_incident'), { authData, inputData: { title, severity: '' } })) as { title: string };
    expect(created.title).toBe(title);
  });

  it('Update Directory Entry changes what is given and keeps what is left empty (the phone is not cleared)', async () => {
    const email = 'update.me@acme.example';
    const created = await appTester(performOf('creates', 'create_directory_entry'), {
      authData,
      inputData: { email, name: 'Update Me', phone: '+1 415 555 0111', role: '' },
    });
    expect(created).toMatchObject({ email, name: 'Update Me', phone: '+14155550111', role: 'user' });
    const updated = await appTester(performOf('creates', 'update_directory_entry'), {
      authData,
      inputData: { email, name: 'Updated Name', phone: '', role: '' },
    });
    expect(updated).toMatchObject({ email, name: 'Updated Name', phone: '+14155550111', role: 'user' });
  });

  it('Update Directory Entry of an e-mail with no entry stops with "not found" and changes nothing', async () => {
    const failure = await failureOf(
      appTester(performOf('creates', 'update_directory_entry'), { authData, inputData: { email: 'nobody.here@acme.example', name: 'X' } }),
    );
    expect(failure).toMatchObject({ code: 'not_found', status: 404 });
    const found = await appTester(performOf('searches', 'find_directory_entry'), { authData, inputData: { email: 'nobody.here@acme.example' } });
    expect(found).toEqual([]);
  });
});
