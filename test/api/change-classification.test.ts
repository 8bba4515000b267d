import { describe, expect, it } from '@jest/globals';
import type { Difference, SurfaceId } from '../../scripts/api/model.ts';
import type { InputField, Operation } from '../../shared/operations/types.ts';
import { changed, differencesAfter, mapInput, withInputs, withOutputs } from './change-support.ts';

/**
 * Each kind of change a maintainer may make to the descriptions, made to a COPY of the
 * operations (as test/new-operation.test.ts makes them), and what the check calls it on each of
 * the Zapier, Make, n8n and MCP surfaces it reaches: every difference, with its verdict and the
 * key it names, and nothing on a surface it does not reach.
 */

type Expected = Partial<Record<SurfaceId, readonly (readonly [id: string, verdict: Difference['verdict'], change: string])[]>>;

const seen = (differences: Record<SurfaceId, Difference[]>) =>
  Object.fromEntries(
    (['zapier', 'make', 'n8n', 'mcp'] as const).map((surface) => [surface, differences[surface].map((d) => [d.id, d.verdict, d.change] as const)]),
  );

/** Every surface's differences, exactly: the ones expected (change text matched as a pattern), none other. */
async function expectDifferences(operations: readonly Operation[], expected: Expected) {
  const differences = await differencesAfter(operations);
  const wanted = Object.fromEntries(
    (['zapier', 'make', 'n8n', 'mcp'] as const).map((surface) => [
      surface,
      (expected[surface] ?? []).map(([id, verdict, change]) => [id, verdict, expect.stringMatching(change)]),
    ]),
  );
  expect(seen(differences)).toEqual(wanted);
  // Each difference says what users of its surface must do, in that surface's terms.
  const words: Record<string, RegExp> = { zapier: /^Zapier: /, make: /^Make: /, n8n: /n8n: /, mcp: /^MCP: / };
  for (const [surface, list] of Object.entries(differences)) for (const d of list) expect(d.advice).toMatch(words[surface]!);
  return differences;
}

const runbook = (required: boolean): InputField => ({ key: 'runbook_url', label: 'Runbook URL', type: 'url', required, help: 'Where the runbook lives.' });

describe('what the check calls each change, on each surface it reaches', () => {
  it('an input key renamed: the old key removed, breaking, and the new one named', async () => {
    await expectDifferences(
      changed('createIncident', (op) => mapInput(op, 'description', (field) => ({ ...field, key: 'details' }))),
      {
        zapier: [
          ['create/create_incident/input/description', 'breaking', '^removed \\(renamed to details\\?\\)$'],
          ['create/create_incident/input/details', 'compatible', '^added$'],
        ],
        make: [
          ['module/createIncident/param/description', 'breaking', 'renamed to details'],
          ['module/createIncident/param/details', 'compatible', '^added$'],
        ],
        n8n: [
          ['node/pagerly/v1/operation/incident/create/property/additionalFields/description', 'breaking', 'renamed to details'],
          ['node/pagerly/v1/operation/incident/create/property/additionalFields/details', 'compatible', '^added$'],
        ],
        mcp: [
          ['tool/create_incident/input/description', 'breaking', 'renamed to details'],
          ['tool/create_incident/input/details', 'compatible', '^added$'],
        ],
      },
    );
  });

  it('an output field removed: breaking wherever a later step maps it', async () => {
    const differences = await expectDifferences(
      changed('createIncident', (op) =>
        withOutputs(
          op,
          op.outputFields.filter((field) => field.key !== 'severity'),
        ),
      ),
      {
        zapier: [['create/create_incident/output/severity', 'breaking', '^removed$']],
        make: [['module/createIncident/output/severity', 'breaking', '^removed$']],
        n8n: [['node/pagerly/v1/operation/incident/create/output/severity', 'breaking', '^removed$']],
        mcp: [['tool/create_incident/output/severity', 'breaking', '^removed$']],
      },
    );
    // n8n's way: a new typeVersion that keeps v1; Make's: a new app; Zapier's: a new major.
    expect(differences.n8n[0]!.advice).toContain('add typeVersion 2 and keep v1');
    expect(differences.make[0]!.advice).toContain('new app');
    expect(differences.zapier[0]!.advice).toContain('new major version');
  });

  it('an optional input made required, without a default: breaking (on n8n it leaves the optional fields for the top level)', async () => {
    await expectDifferences(
      changed('createIncident', (op) => mapInput(op, 'description', (field) => ({ ...field, required: true }))),
      {
        zapier: [['create/create_incident/input/description', 'breaking', '^required: false → true$']],
        make: [['module/createIncident/param/description', 'breaking', '^required: false → true$']],
        n8n: [
          ['node/pagerly/v1/operation/incident/create/property/additionalFields/description', 'breaking', '^removed$'],
          ['node/pagerly/v1/operation/incident/create/property/description', 'breaking', '^added, required, without a default$'],
        ],
        mcp: [['tool/create_incident/input/description', 'breaking', '^required: false → true$']],
      },
    );
  });

  it('a new required input without a default: breaking, since no saved step has it', async () => {
    await expectDifferences(
      changed('createIncident', (op) => withInputs(op, [...op.inputFields, runbook(true)])),
      {
        zapier: [['create/create_incident/input/runbook_url', 'breaking', '^added, required, without a default$']],
        make: [['module/createIncident/param/runbook_url', 'breaking', '^added, required, without a default$']],
        n8n: [['node/pagerly/v1/operation/incident/create/property/runbook_url', 'breaking', '^added, required, without a default$']],
        mcp: [['tool/create_incident/input/runbook_url', 'breaking', '^added, required, without a default$']],
      },
    );
  });

  it('a new optional input: compatible', async () => {
    await expectDifferences(
      changed('createIncident', (op) => withInputs(op, [...op.inputFields, runbook(false)])),
      {
        zapier: [['create/create_incident/input/runbook_url', 'compatible', '^added$']],
        make: [['module/createIncident/param/runbook_url', 'compatible', '^added$']],
        n8n: [['node/pagerly/v1/operation/incident/create/property/additionalFields/runbook_url', 'compatible', '^added$']],
        mcp: [['tool/create_incident/input/runbook_url', 'compatible', '^added$']],
      },
    );
  });

  // MCP's enum comes from the endpoint's input schema (the service's values), not the field's choices: the change does not reach it.
  it('a static choice removed: breaking, naming the value', async () => {
    await expectDifferences(
      changed('createIncident', (op) => mapInput(op, 'status', (field) => ({ ...field, choices: field.choices!.filter((c) => c.value !== 'acknowledged') }))),
      {
        zapier: [['create/create_incident/input/status', 'breaking', '^choices: removed "acknowledged"$']],
        make: [['module/createIncident/param/status', 'breaking', '^choices: removed "acknowledged"$']],
        n8n: [['node/pagerly/v1/operation/incident/create/property/additionalFields/status', 'breaking', '^choices: removed "acknowledged"$']],
      },
    );
  });

  it('a static choice added: compatible', async () => {
    await expectDifferences(
      changed('createIncident', (op) =>
        mapInput(op, 'status', (field) => ({ ...field, choices: [...field.choices!, { value: 'snoozed', label: 'Snoozed' }] })),
      ),
      {
        zapier: [['create/create_incident/input/status', 'compatible', '^choices: added "snoozed"$']],
        make: [['module/createIncident/param/status', 'compatible', '^choices: added "snoozed"$']],
        n8n: [['node/pagerly/v1/operation/incident/create/property/additionalFields/status', 'compatible', '^choices: added "snoozed"$']],
      },
    );
  });

  it("an output field's type changed: breaking everywhere", async () => {
    await expectDifferences(
      changed('createIncident', (op) =>
        withOutputs(
          op,
          op.outputFields.map((field) => (field.key === 'created_at' ? { ...field, type: 'number' } : field)),
        ),
      ),
      {
        zapier: [['create/create_incident/output/created_at', 'breaking', '^type: "datetime" → "number"$']],
        make: [['module/createIncident/output/created_at', 'breaking', '^type: "date" → "number"$']],
        n8n: [['node/pagerly/v1/operation/incident/create/output/created_at', 'breaking', '^type: "datetime" → "number"$']],
        mcp: [['tool/create_incident/output/created_at', 'breaking', '^type: "null\\|string" → "null\\|number"$']],
      },
    );
  });

  // n8n shows text and a URL as one string property, MCP as one JSON string: only Zapier and Make see this change.
  // Zapier's versioning matrix marks a field type change "Depends" (https://docs.zapier.com/platform/manage/planning-changes):
  // compatible, with what to check; Make checks a `url` parameter, so text there no longer passes.
  it("an input field's type changed: breaking where the platform's type refuses values, depends on Zapier", async () => {
    const differences = await expectDifferences(
      changed('createIncident', (op) => mapInput(op, 'description', (field) => ({ ...field, type: 'url' }))),
      {
        zapier: [['create/create_incident/input/description', 'compatible', '^type: "text" → "string"$']],
        make: [['module/createIncident/param/description', 'breaking', '^type: "text" → "url"$']],
      },
    );
    expect(differences.zapier[0]!.depends).toMatch(/^check that every value saved Zaps send in this field, typed or mapped, is still taken as "string"/);
    expect(differences.zapier[0]!.advice).toMatch(/^Zapier: its versioning matrix says this depends/);
  });

  it('an operation hidden (being retired): compatible; then removed: breaking, and the advice says it ends a retirement', async () => {
    // Retiring as shared/operations/retiring.ts marks it: each surface hides it its own way
    // (n8n: a node version 2 without it, version 1 keeping it; Make: the label says deprecated).
    const hidden = changed('createIncident', (op) => ({ ...op, retiring: { since: '0.1.0', use: 'updateIncident' } }) as Operation);
    await expectDifferences(hidden, {
      zapier: [['create/create_incident', 'compatible', '^hidden: \\(none\\) → true$']],
      make: [['module/createIncident', 'compatible', '^hidden: \\(none\\) → true; label: "Create an incident" → "Create an incident \\(deprecated\\)"$']],
      n8n: [
        ['node/pagerly', 'compatible', '^versions: added "2"$'],
        ['node/pagerly/v1/operation/incident/create', 'compatible', '^hidden: \\(none\\) → true$'],
        ['node/pagerly/v2', 'compatible', '^added, with \\d+ items under it$'],
      ],
      mcp: [['tool/create_incident', 'compatible', '^hidden: \\(none\\) → true$']],
    });
    const { reportsOf } = await import('./change-support.ts');
    const { compareReports } = await import('../../scripts/api/classify.ts');
    const [whileHidden, afterRemoval] = await Promise.all([reportsOf(hidden), reportsOf(changed('createIncident', () => undefined))]);
    const removed = whileHidden.map((report, index) => compareReports(report, afterRemoval[index]!).filter((d) => d.verdict === 'breaking'));
    const [zapier, make, n8n, mcp] = removed;
    expect(zapier!.map((d) => [d.id, d.change])).toEqual([['create/create_incident', 'removed, with 14 items under it']]);
    expect(make!.map((d) => d.id)).toEqual(['module/createIncident']);
    // On n8n the removal also drops the node version the retirement added, where workflows made
    // since were saved: breaking, until the retirement's release is listed as ended
    // (ENDED_RETIREMENTS in n8n-app/generator/versions.ts), which keeps that version. And the
    // incident resource's default operation moves from the removed `create` to `update`: a v1 node
    // saved without an operation (n8n leaves a default out) would now update.
    expect(n8n!.map((d) => d.id)).toEqual([
      'node/pagerly',
      'node/pagerly/v1/operation/incident/create',
      'node/pagerly/v1/resource/incident/property/operation',
      'node/pagerly/v2',
    ]);
    expect(mcp!.map((d) => d.id)).toEqual(['tool/create_incident']);
    for (const d of [zapier![0]!, make![0]!, n8n![1]!, mcp![0]!])
      expect(d.advice).toMatch(/^It was hidden \(being retired\): removing it is the retirement's last step, allowed only in a new major version\./);
  });
});
