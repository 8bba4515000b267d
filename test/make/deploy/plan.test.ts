import { describe, expect, it } from '@jest/globals';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppFolderError, readAppFolder } from '../../../make-app/deploy/app-folder.ts';
import { emptyIdMapping, originFor } from '../../../make-app/deploy/id-mapping.ts';
import { planDeploy, stepTitle, type Step } from '../../../make-app/deploy/plan.ts';
import { readSettings, type DeploySettings } from '../../../make-app/deploy/settings.ts';
import { offlineNock } from '../../support/offline-nock.ts';
import { copyOfFixture, ENV, FIXTURE_APP, runDeploy } from './replay.ts';

offlineNock(); // runDeploy below must not reach the network either

const settings = (readSettings(ENV) as { ok: true; settings: DeploySettings }).settings;

describe('planDeploy', () => {
  const plan = planDeploy(readAppFolder(FIXTURE_APP), settings, emptyIdMapping());

  it('orders the steps as Make deploys: app codes, connections, RPCs, webhooks, modules, each with its sections', () => {
    expect(plan.steps.map(stepTitle)).toEqual([
      'app pagerly-acme',
      'app base ← general/base.iml.json',
      'app groups ← modules/groups.json',
      'app common ← general/common.json',
      'app readme ← README.md',
      'connection pagerly',
      'connection pagerly api ← connections/pagerly/pagerly.communication.iml.json',
      'connection pagerly parameters ← connections/pagerly/pagerly.params.iml.json',
      'RPC listTeams',
      'RPC listTeams api ← rpcs/list-teams/list-teams.communication.iml.json',
      'RPC listTeams parameters ← rpcs/list-teams/list-teams.params.iml.json',
      'webhook onCallChanges',
      ...['api', 'parameters', 'attach', 'detach'].map((section) => expect.stringMatching(new RegExp(`^webhook onCallChanges ${section} ← `))),
      ...['createIncident', 'listOnCallUsers', 'watchOnCallChanges', 'makeApiCall'].flatMap((id) => [
        `module ${id}`,
        ...['api', 'parameters', 'expect', 'interface', 'samples'].map((section) => expect.stringMatching(new RegExp(`^module ${id} ${section} ← `))),
      ]),
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it('maps each module to its typeId, webhook, crud and subtype', () => {
    const modules = plan.steps.filter((step): step is Extract<Step, { kind: 'module' }> => step.kind === 'module');
    expect(modules).toEqual([
      { kind: 'module', id: 'createIncident', label: 'Create an Incident', description: 'Creates a new incident.', moduleType: 'action', typeId: 4, connection: 'pagerly', crud: 'create' },
      { kind: 'module', id: 'listOnCallUsers', label: 'List On-Call Users', description: 'Lists the users currently on call in a team.', moduleType: 'search', typeId: 9, connection: 'pagerly' },
      { kind: 'module', id: 'watchOnCallChanges', label: 'Watch On-Call Changes', description: 'Triggers when the on-call person of a team changes.', moduleType: 'instant_trigger', typeId: 10, connection: 'pagerly', webhook: 'onCallChanges' },
      { kind: 'module', id: 'makeApiCall', label: 'Make an API Call', description: 'Performs an arbitrary authorized API call.', moduleType: 'universal', typeId: 12, connection: 'pagerly', subtype: 'Universal' },
    ]);
  });

  it('creates the app with label, description, theme, language en, a global audience, private', () => {
    expect(plan.steps[0]).toEqual({
      kind: 'app',
      create: { name: 'pagerly-acme', label: 'Pagerly', description: ENV.MAKE_APP_DESCRIPTION, theme: '#3B5BDB', language: 'en', audience: 'global', private: true },
    });
  });

  it('leaves out a component whose idMapping entry is deliberately unpaired', () => {
    const mapping = emptyIdMapping();
    mapping.module.push({ local: 'makeApiCall', remote: null });
    const skipping = planDeploy(readAppFolder(FIXTURE_APP), settings, mapping);
    expect(skipping.steps.map(stepTitle).filter((title) => title.startsWith('module makeApiCall'))).toEqual([]);
    expect(skipping.skipped).toEqual(['module makeApiCall (its idMapping entry has "remote": null)']);
  });
});

describe('originFor', () => {
  it('starts a new origin when none matches the zone, app and version', () => {
    const folder = readAppFolder(FIXTURE_APP);
    expect(originFor(folder.manifest, { ...settings, appVersion: 2 })).toEqual({
      label: 'Make eu1.make.com',
      baseUrl: 'https://eu1.make.com/api',
      appId: 'pagerly-acme',
      appVersion: 2,
      apikeyFile: '.secrets/apikey',
      idMapping: emptyIdMapping(),
    });
  });
});

describe('readAppFolder checks what Make would refuse, all at once', () => {
  const problemsOf = (dir: string): readonly string[] => {
    try {
      readAppFolder(dir);
    } catch (error) {
      if (error instanceof AppFolderError) return error.problems;
      throw error;
    }
    return [];
  };

  it('the fixture app is deployable', () => {
    expect(problemsOf(FIXTURE_APP)).toEqual([]);
  });

  it('reports bad references, missing metadata, missing files and what it does not deploy', () => {
    const dir = copyOfFixture((manifest) => {
      const { module, webhook, rpc } = manifest['components'];
      module.watchOnCallChanges.webhook = null;
      delete module.createIncident.actionCrud;
      module.listOnCallUsers.connection = 'apikey';
      module.makeApiCall.moduleType = 'universal_graphql';
      rpc['list-teams'] = rpc.listTeams;
      delete rpc.listTeams;
      webhook.onCallChanges.codeFiles.update = 'webhooks/on-call-changes/on-call-changes.update.iml.json';
      manifest['components'].function = { toIso: { codeFiles: { code: 'functions/to-iso/to-iso.code.js' } } };
    });
    rmSync(join(dir, 'modules/create-incident/create-incident.samples.iml.json'));
    writeFileSync(join(dir, 'general/common.json'), '// secrets\n{}');

    expect(problemsOf(dir)).toEqual([
      expect.stringMatching(/^generalCodeFiles: general\/common\.json must be plain JSON \(no comments\): /),
      'webhook onCallChanges: codeFiles.update is not deployed by make:deploy; set it to null.',
      'module createIncident: codeFiles.samples names modules/create-incident/create-incident.samples.iml.json, which does not exist in the app folder.',
      'function toIso: functions are not deployed by make:deploy; remove it from makecomapp.json or deploy it with Make\'s VS Code editor.',
      'rpc list-teams: rpc IDs must be 4-48 letters and digits, starting with a letter.',
      'module createIncident: an action module needs "actionCrud" (create, read, update or delete).',
      'module listOnCallUsers: "connection" is "apikey", which is not a connection in makecomapp.json (references use local IDs).',
      'module watchOnCallChanges: an instant_trigger module needs "webhook" (the local ID of a webhook).',
      'module makeApiCall: moduleType must be one of trigger, action, search, instant_trigger, responder, universal (got "universal_graphql").',
    ]);
  });

  it('the CLI prints every problem and exits 2 before any request', async () => {
    const dir = copyOfFixture((manifest) => {
      manifest['components'].module.watchOnCallChanges.webhook = 'onCallChanged';
    });
    const result = await runDeploy(['--app-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.err).toEqual([
      `Cannot deploy ${dir}: 1 problem in the app folder.`,
      '  - module watchOnCallChanges: "webhook" is "onCallChanged", which is not a webhook in makecomapp.json (references use local IDs).',
    ]);
  });
});
