import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { type ZapStep, zapierApiNames, zapTemplates } from '../../zapier-app/zap-templates.ts';
import { HOUR, startReceiver } from '../sandbox/support.ts';
import { App, appTester } from './support.ts';

/**
 * Each Zap template's Pagerly steps run on zapier-platform-core (its app tester) against the
 * sandbox, their fields filled as Zapier fills them: a `{{N.key}}` reference takes output `key`
 * of step N, the output flattened as Zapier's editor shows it (`team__name`).
 */
const authData = { apiKey: demoKeys.acmeUser };
const [onCallToChat, deployIncident, morningDigest] = zapTemplates;
let sandbox: Sandbox;
const savedBase = process.env.PAGERLY_BASE_URL;

beforeAll(async () => {
  sandbox = await createSandbox();
  process.env.PAGERLY_BASE_URL = await sandbox.listen();
});
afterAll(async () => {
  if (savedBase === undefined) delete process.env.PAGERLY_BASE_URL;
  else process.env.PAGERLY_BASE_URL = savedBase;
  await sandbox?.close();
});

type Flat = Record<string, unknown>;

/** Zapier's view of a step's output: nested objects become `parent__child` keys. */
function flatten(value: Record<string, unknown>, prefix = ''): Flat {
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, inner]) =>
      inner !== null && typeof inner === 'object' && !Array.isArray(inner)
        ? Object.entries(flatten(inner as Record<string, unknown>, `${prefix}${key}__`))
        : [[`${prefix}${key}`, inner]],
    ),
  );
}

/** What a user sets where a template says "(your …)". */
const userChoices: Record<string, string> = { '(your team)': 'Platform' };

/** A step's fields with every `{{N.key}}` replaced by step N's (flattened) output. */
function mapFields(step: ZapStep, outputs: Record<number, Flat>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(step.fields).map(([field, text]) => [
      field,
      (userChoices[text] ?? text).replace(/\{\{(\d+)\.([\w]+)\}\}/g, (_, n: string, key: string) => {
        const output = outputs[Number(n)];
        if (!output || !(key in output)) throw new Error(`step ${n} has no output "${key}" for field ${field}`);
        return String(output[key] ?? '');
      }),
    ]),
  );
}

const kinds = { action: 'creates', search: 'searches', trigger: 'triggers' } as const;
type Perform = (z: ZObject, bundle: Bundle) => unknown;
const perform = (step: ZapStep, method: 'perform' | 'performList' = 'perform'): Perform => {
  const definition = (App as unknown as Record<string, Record<string, { operation: Record<string, Perform> }>>)[kinds[step.type as keyof typeof kinds]]?.[
    step.key
  ];
  if (!definition?.operation[method]) throw new Error(`the app has no ${step.type} ${step.key} with ${method}`);
  return definition.operation[method];
};
const runStep = async (step: ZapStep, outputs: Record<number, Flat>, method?: 'perform' | 'performList') =>
  (await appTester(perform(step, method), { authData, inputData: mapFields(step, outputs) })) as unknown;

describe('Zap templates', () => {
  it('name only keys the app has, and docs/zapier.md shows each with its steps and mappings', () => {
    const page = readFileSync(new URL('../../docs/zapier.md', import.meta.url), 'utf8');
    for (const template of zapTemplates) {
      expect(page).toContain(`### ${template.title}`);
      // A Zap its pipeline calls says how its trigger is protected, under its own heading.
      if (template.steps[0]!.key === 'hook_v2') expect(template.trigger).toMatch(/secret store/);
      if (template.trigger) expect(page.slice(page.indexOf(`### ${template.title}`)).split('\n### ')[0]).toContain(template.trigger);
      for (const step of template.steps) {
        if (step.app === 'Pagerly') expect(() => perform(step, step.type === 'trigger' ? 'performList' : 'perform')).not.toThrow();
        // A Zap's step names Zapier's app by its API name (pre-filled Zaps: `steps[0][app]=WeatherCLIAPI@latest`,
        // docs.zapier.com/powered-by-zapier/embedding-zapier/pre-filled-zaps), shown beside the name users see.
        const named = step.app === 'Pagerly' ? '**Pagerly**' : `**${step.app}** (\`${zapierApiNames[step.app]}\`)`;
        expect(page).toContain(`${named}, ${step.type} \`${step.key}\``);
        for (const [field, value] of Object.entries(step.fields))
          expect({ step: step.key, line: page.includes(`\`${field}\`: \`${value.replace(/\n/g, '\\n')}\``) }).toEqual({ step: step.key, line: true });
      }
    }
  });

  it('job 1: a live on-call change, as the trigger hands it to the Zap, fills the chat message with the team and the people', async () => {
    const trigger = onCallToChat!.steps[0]!;
    const receiver = await startReceiver();
    try {
      expect(trigger.key).toBe('on_call_changed');
      const operation = App.triggers.on_call_changed.operation as unknown as Record<string, Perform>;
      const inputData = mapFields(trigger, {});
      const subscription = await appTester(operation['performSubscribe']!, { authData, inputData, targetUrl: receiver.url });
      await sandbox.clock.advance(HOUR + 1); // 09:00: Platform hands over from Alan to Edsger
      await sandbox.deliveries.idle();
      const hook = receiver.received[0]!;
      const headers = Object.fromEntries(
        Object.entries(hook.headers).map(([name, value]) => [`Http-${name.replace(/(^|-)\w/g, (c) => c.toUpperCase())}`, String(value)]),
      );
      const [item] = (await appTester(operation['perform']!, {
        authData,
        inputData,
        cleanedRequest: hook.body,
        rawRequest: { content: hook.raw, headers },
      })) as Record<string, unknown>[];
      await appTester(operation['performUnsubscribe']!, { authData, inputData, subscribeData: subscription as { id: string } });
      const message = mapFields(onCallToChat!.steps[1]!, { 1: flatten(item!) });
      expect(message['data__text']).toBe('On call for Platform: Edsger Dijkstra (was Alan Turing)');
    } finally {
      await receiver.close();
    }
  });

  it('job 2: a failure opens an incident and stores its ID, a second failure updates it, the next good deploy resolves the same one', async () => {
    const [, get, create, store, again, resolve, remove] = deployIncident!.steps;
    const hook = { status: 'failure', service: 'checkout-api', environment: 'production', run_url: 'https://ci.acme.example/runs/4711' };
    const key = 'pagerly-deploy-checkout-api-production';
    expect(mapFields(get!, { 1: hook })).toEqual({ key });
    // Storage by Zapier's Get Value finds nothing for a first failure.
    const opened = (await runStep(create!, { 1: hook, 2: { value: '' } })) as Flat;
    expect(opened).toMatchObject({ title: 'Deploy of checkout-api to production failed', severity: 'P2', status: 'triggered' });
    expect(mapFields(store!, { 1: hook, 3: flatten(opened) })).toEqual({ key, value: String(opened['id']) });
    const stored = { value: String(opened['id']) };
    const updated = (await runStep(again!, { 1: hook, 2: stored })) as Flat;
    expect(updated).toMatchObject({ id: opened['id'], status: 'triggered', description: 'Failed again: see https://ci.acme.example/runs/4711' });
    const resolved = (await runStep(resolve!, { 1: { ...hook, status: 'success' }, 2: stored })) as Flat;
    expect(resolved).toMatchObject({ id: opened['id'], status: 'resolved' });
    expect(mapFields(remove!, { 1: hook })).toEqual({ key });
  });

  it('job 3: a search per looped team, its first result (as a Zap takes it) makes one digest line per team', async () => {
    const [, , search, digest] = morningDigest!.steps;
    const lines: string[] = [];
    for (const team of ['Platform', 'Payments', 'Mobile']) {
      const results = (await runStep(search!, { 2: { loop_value: team } })) as Record<string, unknown>[];
      // Nobody on call: no result, and Zapier stops that loop iteration there.
      if (results.length > 0) lines.push(mapFields(digest!, { 3: flatten(results[0]!) })['entry']!);
    }
    // After job 1's hour on the sandbox's clock: Edsger took over Platform and joined Payments.
    expect(lines).toEqual(['Platform: Edsger Dijkstra', 'Payments: Edsger Dijkstra, Grace Hopper']);
  });
});
