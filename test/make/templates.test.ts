import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Blueprint, BlueprintNode } from '@makehq/sdk';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import type { Manifest } from '../../make-app/manifest.ts';
import { renderTemplate } from '../../make-app/interpreter/iml/index.ts';
import {
  customModule,
  DEFAULT_APP_NAME,
  deployWebhookSample,
  DIGEST_MAX_CHARS,
  failedDeployIncident,
  makeTemplates,
  morningOnCallDigest,
  onCallChangeToChat,
} from '../../make-app/templates/blueprints.ts';
import { BLUEPRINT_FILE, blueprintFiles, TEMPLATES_DIR } from '../../make-app/templates/write-blueprints.ts';
import { demoKeys, HOUR, startReceiver, startSandbox, type Receiver, type Running } from '../sandbox/support.ts';
import { runnerFor } from './support.ts';

const target = { appName: DEFAULT_APP_NAME, appVersion: 1 };
const files = generateMakeApp();
const manifest = files.get('makecomapp.json') as Manifest;
const appModules = new Set(Object.keys(manifest.components.module ?? {}));

/** Every module of a blueprint, routes included. */
const nodesOf = (flow: readonly BlueprintNode[]): BlueprintNode[] =>
  flow.flatMap((node) => [node, ...(node.routes ?? []).flatMap((route) => nodesOf(route.flow))]);
const read = (job: string) => JSON.parse(readFileSync(join(TEMPLATES_DIR, job, BLUEPRINT_FILE), 'utf8')) as unknown;

/**
 * A scenario's IML names a module's output by the module's id (`{{1.team.name}}`); the runner's
 * IML, written for an app's own files, has no number-led paths, so module N's bundle goes into
 * the scope as `moduleN` and the mapper's references are renamed to match.
 */
function mapperOn(node: BlueprintNode, bundles: Record<number, unknown>): Record<string, unknown> {
  const renamed = JSON.parse(JSON.stringify(node.mapper ?? {}).replace(/\{\{(\d+)\./g, '{{module$1.')) as unknown;
  const scope = Object.fromEntries(Object.entries(bundles).map(([id, bundle]) => [`module${id}`, bundle]));
  return renderTemplate(renamed, scope) as Record<string, unknown>;
}

/** The shape "Import Blueprint" reads, checked at run time (the type holds it at compile time). */
function expectBlueprintShape(value: unknown): asserts value is Blueprint {
  const blueprint = value as Blueprint;
  expect(blueprint).toEqual({
    name: expect.any(String),
    flow: expect.any(Array),
    metadata: expect.objectContaining({ instant: expect.any(Boolean) }),
    scheduling: expect.objectContaining({ type: expect.stringMatching(/^(immediately|indefinitely|once|daily|weekly|monthly|yearly|on-demand)$/) }),
    interface: { input: [], output: [] },
  });
  const nodes = nodesOf(blueprint.flow);
  for (const node of nodes) {
    expect(node).toMatchObject({ id: expect.any(Number), module: expect.stringMatching(/^(app#[a-z0-9-]+|[a-z]+):[A-Za-z]+$/), version: expect.any(Number) });
    if (node.routes) for (const route of node.routes) expect(route.flow.length).toBeGreaterThan(0);
  }
  expect(new Set(nodes.map((node) => node.id)).size).toBe(nodes.length);
}

describe('Make scenario blueprints', () => {
  it('are typed as Blueprint and committed as `npm run make:blueprints` writes them for the default app name', () => {
    const typed: Record<string, Blueprint> = { a: onCallChangeToChat(target), b: failedDeployIncident(target), c: morningOnCallDigest(target) };
    expect(Object.keys(typed)).toHaveLength(Object.keys(makeTemplates).length);
    for (const [path, text] of blueprintFiles(target)) expect({ path, text: readFileSync(join(TEMPLATES_DIR, path), 'utf8') }).toEqual({ path, text });
  });

  it('each parses as a Blueprint', () => {
    for (const job of Object.keys(makeTemplates)) expectBlueprintShape(read(job));
  });

  it('name only modules the built app has, as `app#<name>:<module>` for the name the app was deployed with', () => {
    for (const [job, build] of Object.entries(makeTemplates)) {
      const ours = nodesOf((read(job) as Blueprint).flow).filter((node) => node.module.startsWith('app#'));
      expect(ours.length).toBeGreaterThan(0);
      for (const node of ours)
        expect({ job, module: node.module, known: appModules.has(node.module.split(':')[1]!) }).toEqual({ job, module: node.module, known: true });
      const deployed = nodesOf(build({ appName: 'pagerly-x7k2qa', appVersion: 2 }).flow).filter((node) => node.module.startsWith('app#'));
      for (const node of deployed) expect(node).toMatchObject({ module: expect.stringMatching(/^app#pagerly-x7k2qa:/), version: 2 });
    }
    expect(customModule('pagerly-acme', 'createIncident')).toBe('app#pagerly-acme:createIncident');
  });
});

describe('Make scenario blueprints, run on the sandbox', () => {
  let running: Running;
  let receiver: Receiver;
  let run: ReturnType<typeof runnerFor>;
  const connection = { apiKey: demoKeys.acmeUser };
  beforeAll(async () => {
    running = await startSandbox();
    receiver = await startReceiver();
    run = runnerFor(running.url);
  });
  afterAll(async () => {
    await receiver.close();
    await running.sandbox.close();
  });

  const moduleNamed = (blueprint: Blueprint, id: number) => nodesOf(blueprint.flow).find((node) => node.id === id)!;
  const bundleOf = async (node: BlueprintNode, parameters: Record<string, unknown>) =>
    ((await run.module(node.module.split(':')[1]!, { connection, parameters })) as Record<string, unknown>[])[0]!;

  it('job 1: a live on-call change reaches the trigger, and its bundle has every field the chat text maps', async () => {
    const blueprint = onCallChangeToChat(target);
    const trigger = moduleNamed(blueprint, 1);
    const webhook = manifest.components.module?.[trigger.module.split(':')[1]!]?.webhook as string;
    const stored = await run.attach(webhook, { connection, parameters: { teamname: 'Platform' }, webhook: { id: 'template-1', url: receiver.url } });
    await running.sandbox.clock.advance(HOUR + 1);
    await running.sandbox.deliveries.idle();
    const body = receiver.received.find((hook) => hook.body.team?.name === 'Platform')!.body;
    const [bundle] = run.receive(webhook, { parameters: { teamname: 'Platform' }, body }) as Record<string, unknown>[];
    await run.detach(webhook, { connection, parameters: {}, webhook: stored });
    const references = [...JSON.stringify(moduleNamed(blueprint, 2).mapper).matchAll(/\b1\.([a-z_.]+)/g)].map((match) => match[1]!);
    expect(references).toEqual(['team.name', 'current_names', 'previous_names']);
    const message = mapperOn({ id: 0, module: 'x', version: 1, mapper: Object.fromEntries(references.map((path) => [path, `{{1.${path}}}`])) }, { 1: bundle });
    expect(message).toEqual({ 'team.name': 'Platform', current_names: 'Edsger Dijkstra', previous_names: 'Alan Turing' });
  });

  it('job 2: a failure opens an incident, a second failure updates the same one, the next good deploy resolves it', async () => {
    const blueprint = failedDeployIncident(target);
    const [create, again, resolve] = [3, 5, 7].map((id) => moduleNamed(blueprint, id));
    const failed = { ...deployWebhookSample };
    const opened = await bundleOf(create!, mapperOn(create!, { 1: failed }));
    expect(opened).toMatchObject({
      title: 'Deploy of checkout-api to production failed',
      severity: 'P2',
      status: 'triggered',
      description: 'See https://ci.acme.example/runs/4711',
    });
    const second = await bundleOf(again!, mapperOn(again!, { 1: { ...failed, incident_id: opened.id } }));
    expect(second).toMatchObject({ id: opened.id, status: 'triggered' });
    const resolved = await bundleOf(resolve!, mapperOn(resolve!, { 1: { ...failed, status: 'success', incident_id: opened.id } }));
    expect(resolved).toMatchObject({ id: opened.id, status: 'resolved', severity: 'P2' });
  });

  it('job 3: one run reads every team and who is on call in each; the one message is cut at a bound', async () => {
    const blueprint = morningOnCallDigest(target);
    const [teamsCall, perTeam] = [1, 3].map((id) => moduleNamed(blueprint, id));
    // The API call's paths are relative to the API base; the spec lists the teams under the
    // rotations base (the sandbox answers at both, so only this line would catch the bare path).
    expect(teamsCall!.mapper).toMatchObject({ url: '/pagerly/o/zapier/allteams' });
    const [answer] = (await run.module('makeApiCall', { connection, parameters: mapperOn(teamsCall!, {}) })) as { body: { name: string }[] }[];
    const lines: string[] = [];
    for (const team of answer!.body) {
      const parameters = mapperOn(perTeam!, { 1: answer, 2: team });
      expect(parameters).toEqual({ teamname: team.name, limit: 100 });
      for (const person of (await run.module(perTeam!.module.split(':')[1]!, { connection, parameters })) as { team: { name: string }; name: string }[])
        lines.push(`${person.team.name}: ${person.name}`);
    }
    expect(answer!.body.map((team) => team.name)).toEqual(['Platform', 'Payments', 'Mobile']);
    // After job 1's hour on the sandbox's clock: Edsger took over Platform and joined Payments.
    expect(lines).toEqual(['Platform: Edsger Dijkstra', 'Payments: Edsger Dijkstra', 'Payments: Grace Hopper']);
    const aggregator = moduleNamed(blueprint, 4);
    expect(aggregator).toMatchObject({ module: 'util:TextAggregator', parameters: { feeder: 1 } });
    expect(JSON.stringify(moduleNamed(blueprint, 5).mapper)).toContain(`substring(4.text; 0; ${DIGEST_MAX_CHARS})`);
  });
});
