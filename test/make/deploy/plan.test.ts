import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { emptyIdMapping } from '../../../make-app/manifest.ts';
import { originFor } from '../../../make-app/deploy/origin.ts';
import { AppFolderError, planDeploy } from '../../../make-app/deploy/plan.ts';
import { offlineNock } from '../../support/offline-nock.ts';
import { copyOfFixture, deployArgs, ENV, FIXTURE_APP, originsOf, runDeploy } from './replay.ts';

offlineNock(); // runDeploy below must not reach the network either

const create = { name: 'pagerly-acme', label: 'Pagerly', theme: '#3B5BDB', language: 'en', audience: 'global', private: true };

describe('planDeploy', () => {
  const plan = planDeploy(FIXTURE_APP, create, emptyIdMapping());

  it('orders the steps as Make deploys: app codes, connections, RPCs, webhooks, modules, each with its sections', () => {
    expect(plan.steps.map((step) => step.title)).toEqual([
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

  it("leaves out a component whose idMapping entry is deliberately unpaired, as Make's editor does", () => {
    const mapping = emptyIdMapping();
    mapping.module.push({ local: 'makeApiCall', remote: null });
    const skipping = planDeploy(FIXTURE_APP, create, mapping);
    expect(skipping.steps.map((step) => step.title).filter((title) => title.startsWith('module makeApiCall'))).toEqual([]);
    expect(skipping.skipped).toEqual(['module makeApiCall (its idMapping entry has "remote": null)']);
  });

  it('refuses a code file it has no section for, rather than leave it out unsaid', () => {
    const dir = copyOfFixture((manifest) => {
      manifest['components'].webhook.onCallChanges.codeFiles.update = 'webhooks/on-call-changes/on-call-changes.update.iml.json';
    });
    expect(() => planDeploy(dir, create, emptyIdMapping())).toThrow(
      new AppFolderError('webhook onCallChanges: make:deploy does not deploy codeFiles.update; set it to null.'),
    );
  });
});

describe('originFor', () => {
  it('starts a new origin when none in the origins file matches the zone, app and version', () => {
    const dir = copyOfFixture();
    writeFileSync(originsOf(dir), JSON.stringify([{ baseUrl: 'https://eu1.make.com/api', appId: 'pagerly-acme', appVersion: 1, apikeyFile: 'k' }]));
    expect(originFor(originsOf(dir), { zone: 'eu1.make.com', appName: 'pagerly-acme', appVersion: 2 })).toEqual({
      label: 'Make eu1.make.com',
      baseUrl: 'https://eu1.make.com/api',
      appId: 'pagerly-acme',
      appVersion: 2,
      apikeyFile: '.secrets/apikey',
      idMapping: emptyIdMapping(),
    });
  });

  it('an origins file that is not a list: exit 1 with what to fix, nothing sent', async () => {
    const dir = copyOfFixture();
    writeFileSync(originsOf(dir), '{}');
    const result = await runDeploy(deployArgs(dir), ENV);
    expect(result.code).toBe(1);
    expect(result.err).toEqual([`make:deploy stopped on an unexpected error: ${originsOf(dir)} must hold a JSON array of origins (as in makecomapp.json).`]);
  });
});
