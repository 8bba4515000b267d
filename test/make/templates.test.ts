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
 * A scenario's IML names a module's output by the module's id (`{{1.team.name}}`) and separates a
 * function's arguments with `;` (help.make.com, "Mapping" and "Text and binary functions"); the
 * runner's IML, written for an app's own files, takes `moduleN` and `,`. Only paths, numbers and
 * Make's `newline` keyword are translated: a quote inside `{{…}}` (literal text, whose reading
 * in a scenario Make's pages leave open) is refused, so a blueprint cannot rely on one.
 */
function mapperOn(node: BlueprintNode, bundles: Record<number, unknown>): Record<string, unknown> {
  const translated = JSON.stringify(node.mapper ?? {}).replace(/\{\{(.*?)\}\}/g, (_, expression: string) => {
    if (/["'\\]/.test(expression)) throw new Error(`literal text in a scenario's IML: {{${expression}}}`);
    return `{{${expression.replace(/\b(\d+)\.(?=[a-z_])/gi, 'module$1.').replaceAll(';', ',')}}}`;
  });
  const scope = { newline: '\n', ...Object.fromEntries(Object.entries(bundles).map(([id, bundle]) => [`module${id}`, bundle])) };
  return renderTemplate(JSON.parse(translated) as unknown, scope) as Record<string, unknown>;
}

/**
 * The chat step as Make runs it: "Transform to JSON" (help.make.com/json: converts a value to
 * JSON, here a text to a JSON string) makes `json`, which the HTTP module's raw body maps. Returns
 * the body's `text`, and throws if the body is not JSON, as Slack's webhook would refuse it.
 */
function chatText(blueprint: Blueprint, bundles: Record<number, unknown>): string {
  const nodes = nodesOf(blueprint.flow);
  const toJson = nodes.find((node) => node.module === 'json:TransformToJSON')!;
  const post = nodes.find((node) => node.module === 'http:ActionSendData')!;
  const text = mapperOn(toJson, bundles)['object'];
  expect(typeof text).toBe('string');
  const data = mapperOn(post, { ...bundles, [toJson.id]: { json: JSON.stringify(text) } })['data'] as string;
  return (JSON.parse(data) as { text: string }).text;
}

/** Make's Text aggregator: one text of the mapped `value` of each bundle, joined by the row separator. */
function aggregate(node: BlueprintNode, sourceId: number, bundles: readonly unknown[]): { text: string } {
  const separator = (node.parameters as { rowSeparator: string }).rowSeparator;
  return { text: bundles.map((bundle) => mapperOn(node, { [sourceId]: bundle })['value']).join(separator) };
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

  it("name only Make's own modules at the versions exported scenarios carry", () => {
    // Make publishes no list of its modules: these are as public scenario exports write them
    // (gateway:CustomWebHook v1, http:ActionSendData v3, json:TransformToJSON v1 with `space`,
    // util:TextAggregator v1 with `feeder` in parameters, ...). A typo or a new module fails here.
    const makeOwn: Record<string, number> = {
      'gateway:CustomWebHook': 1,
      'gateway:WebhookRespond': 1,
      'builtin:BasicRouter': 1,
      'builtin:BasicFeeder': 1,
      'util:TextAggregator': 1,
      'json:TransformToJSON': 1,
      'http:ActionSendData': 3,
    };
    for (const job of Object.keys(makeTemplates))
      for (const node of nodesOf((read(job) as Blueprint).flow).filter((node) => !node.module.startsWith('app#')))
        expect({ job, module: node.module, version: node.version }).toEqual({ job, module: node.module, version: makeOwn[node.module] });
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

  it('job 1: a live on-call change reaches the trigger and fills the chat message, any name posted as valid JSON', async () => {
    const blueprint = onCallChangeToChat(target);
    const trigger = moduleNamed(blueprint, 1);
    const webhook = manifest.components.module?.[trigger.module.split(':')[1]!]?.webhook as string;
    const stored = await run.attach(webhook, { connection, parameters: { teamname: 'Platform' }, webhook: { id: 'template-1', url: receiver.url } });
    await running.sandbox.clock.advance(HOUR + 1);
    await running.sandbox.deliveries.idle();
    const body = receiver.received.find((hook) => hook.body.team?.name === 'Platform')!.body;
    const [bundle] = run.receive(webhook, { parameters: { teamname: 'Platform' }, body }) as Record<string, unknown>[];
    await run.detach(webhook, { connection, parameters: {}, webhook: stored });
    expect(chatText(blueprint, { 1: bundle })).toBe('On call for Platform: Edsger Dijkstra (was Alan Turing)');
    // Names from people's tools: a quote, a backslash, a line break, `<`, `|`, `@` reach the chat as typed.
    const hostile = { ...bundle, team: { name: 'Ops "blue" \\ <night>' }, current_names: 'Ada | Lovelace\nada@x.io', previous_names: '\\"' };
    expect(chatText(blueprint, { 1: hostile })).toBe('On call for Ops "blue" \\ <night>: Ada | Lovelace\nada@x.io (was \\")');
  });

  it('job 2: each deploy call takes exactly one route, and every route answers the caller with JSON', () => {
    const router = failedDeployIncident(target).flow[1]!;
    expect(router.module).toBe('builtin:BasicRouter');
    /**
     * Make runs every route whose filter passes, not only the first (help.make.com, "Router"), so
     * the filters must not overlap. `exist` is read as Make reads an empty value: an empty text
     * is empty ("Processing of 'empty' values"); a hypothesis, as Make's engine is private.
     */
    const passes = (filter: BlueprintNode['filter'], bundle: Record<string, unknown>) =>
      (filter?.conditions ?? []).some((all) =>
        all.every(({ a, o, b }) => {
          const value = mapperOn({ id: 0, module: 'x', version: 1, mapper: { a } }, { 1: bundle })['a'];
          const present = value !== undefined && value !== null && value !== '';
          if (o === 'exist') return present;
          if (o === 'notexist') return !present;
          if (o === 'text:equal') return value === b;
          throw new Error(`operator ${o} is not modelled`);
        }),
      );
    for (const status of ['failure', 'success'])
      for (const incident_id of ['', '42']) {
        const bundle = { ...deployWebhookSample, status, incident_id };
        const taken = (router.routes ?? []).filter((route) => passes(route.flow[0]!.filter, bundle));
        expect({ status, incident_id, routes: taken.length }).toEqual({ status, incident_id, routes: 1 });
        const answer = taken[0]!.flow.at(-1)!;
        expect(answer.module).toBe('gateway:WebhookRespond');
        const body = mapperOn(answer, { 3: { id: 42 }, 5: { id: 42 } })['body'] as string;
        expect(JSON.parse(body)).toEqual({ incident_id: status === 'failure' ? '42' : '' });
      }
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

  it('job 3: one run reads every team and who is on call in each, and posts one message', async () => {
    const blueprint = morningOnCallDigest(target);
    const [teamsCall, perTeam] = [1, 3].map((id) => moduleNamed(blueprint, id));
    // The API call's paths are relative to the API base; the spec lists the teams under the
    // rotations base (the sandbox answers at both, so only this line would catch the bare path).
    expect(teamsCall!.mapper).toMatchObject({ url: '/pagerly/o/zapier/allteams' });
    const [answer] = (await run.module('makeApiCall', { connection, parameters: mapperOn(teamsCall!, {}) })) as { body: { name: string }[] }[];
    const people: unknown[] = [];
    for (const team of answer!.body) {
      const parameters = mapperOn(perTeam!, { 1: answer, 2: team });
      expect(parameters).toEqual({ teamname: team.name, limit: 100 });
      people.push(...((await run.module(perTeam!.module.split(':')[1]!, { connection, parameters })) as unknown[]));
    }
    expect(answer!.body.map((team) => team.name)).toEqual(['Platform', 'Payments', 'Mobile']);
    const aggregator = moduleNamed(blueprint, 4);
    expect(aggregator).toMatchObject({ module: 'util:TextAggregator', parameters: { feeder: 1 } });
    // After job 1's hour on the sandbox's clock: Edsger took over Platform and joined Payments.
    expect(chatText(blueprint, { 4: aggregate(aggregator, 3, people) })).toBe(
      'Who is on call this morning:\nPlatform: Edsger Dijkstra\nPayments: Edsger Dijkstra\nPayments: Grace Hopper',
    );
  });

  it('job 3 at 2,000 teams: one message, cut at its bound, still JSON wherever the cut falls', () => {
    const blueprint = morningOnCallDigest(target);
    const aggregator = moduleNamed(blueprint, 4);
    const prefix = 'Who is on call this morning:\n';
    // Names full of characters JSON escapes: across these shifts the cut lands on each of them.
    for (let shift = 0; shift < 8; shift += 1) {
      const people = Array.from({ length: 2_000 }, (_, n) => ({ team: { name: `${'x'.repeat(shift)}Team "${n}" \\` }, name: `A\\"\nB ${n}` }));
      const text = chatText(blueprint, { 4: aggregate(aggregator, 3, people) });
      expect(text.length).toBe(prefix.length + DIGEST_MAX_CHARS);
      expect(text.startsWith(`${prefix}${'x'.repeat(shift)}Team "0" \\: A\\"\nB 0\n`)).toBe(true);
    }
  });
});
