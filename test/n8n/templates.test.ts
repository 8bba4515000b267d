import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { actionNodeDescription, triggerNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { ACTION_NODE, CREDENTIAL, TRIGGER_NODE } from '../../n8n-app/names.ts';
import { runCodeNode, type Item } from '../../n8n-app/templates/code-node.ts';
import {
  CHAT_WEBHOOK_FIELD,
  CHAT_WEBHOOK_NODE,
  codeOf,
  DEPLOY_WEBHOOK_CREDENTIAL,
  isPagerlyNode,
  n8nTemplate,
  n8nTemplates,
  nodeNamed,
  nodeOfType,
  packageNodeType,
  TEMPLATE_CREDENTIAL_NAME,
  TEMPLATE_JOBS,
} from '../../n8n-app/templates/templates.ts';

// The templates themselves, as files: what n8n's import needs of them, their Pagerly nodes held
// to the built package's description, and each Code node's JavaScript run as n8n runs it.
// `npm run n8n:e2e` imports and runs every one on the real engine.

const { NodeHelpers } = createRequire(import.meta.url)('n8n-workflow') as typeof import('n8n-workflow');
const descriptions: Record<string, INodeTypeDescription> = {
  [packageNodeType(ACTION_NODE.name)]: actionNodeDescription() as unknown as INodeTypeDescription,
  [packageNodeType(TRIGGER_NODE.name)]: triggerNodeDescription() as unknown as INodeTypeDescription,
};
const templates = n8nTemplates();
const escapeForSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The properties n8n shows for these parameters (displayOptions.show met), by name. */
function shownProperties(properties: readonly INodeProperties[], parameters: Record<string, unknown>): Map<string, INodeProperties> {
  const shown = properties.filter((property) =>
    Object.entries(property.displayOptions?.show ?? {}).every(([key, values]) => (values as unknown[]).includes(parameters[key])),
  );
  return new Map(shown.map((property) => [property.name, property]));
}
/** A value n8n would refuse for the property: an unknown option or collection entry. Expressions are left to run time. */
function badValues(property: INodeProperties, value: unknown, path: string): string[] {
  if (typeof value === 'string' && value.startsWith('=')) return [];
  if (property.type === 'options')
    return (property.options ?? []).some((option) => 'value' in option && option.value === value) ? [] : [`${path}: ${JSON.stringify(value)}`];
  if (property.type === 'collection') {
    const entries = new Map((property.options ?? []).map((option) => [(option as INodeProperties).name, option as INodeProperties]));
    return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
      entries.has(key) ? badValues(entries.get(key)!, inner, `${path}.${key}`) : [`${path}.${key}: no such field`],
    );
  }
  return [];
}

describe('the n8n templates', () => {
  it('are one per job, in the agreed folders', () => {
    expect(templates.map((t) => t.file)).toEqual(
      Object.values(TEMPLATE_JOBS)
        .sort()
        .map((job) => `templates/${job}/n8n.json`),
    );
  });

  describe.each(templates.map((t) => [t.file, t] as const))('%s', (_file, { workflow }) => {
    it('is a workflow n8n imports: unique node names and ids, connections between its nodes, no id of ours', () => {
      const names = workflow.nodes.map((node) => node.name);
      expect(new Set(names).size).toBe(names.length);
      expect(new Set(workflow.nodes.map((node) => node.id)).size).toBe(names.length);
      for (const [from, outputs] of Object.entries(workflow.connections)) {
        expect(names).toContain(from);
        for (const target of outputs.main.flat()) expect(names).toContain(target.node);
      }
      // Every node but the sticky note and the trigger has an input: nothing is left dangling.
      const targets = new Set(Object.values(workflow.connections).flatMap((outputs) => outputs.main.flat().map((target) => target.node)));
      const starts = workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote' && !targets.has(node.name));
      expect(starts).toHaveLength(1);
      expect(starts[0]!.type).toMatch(/[Tt]rigger$|\.webhook$/);
      // No workflow id or version: n8n gives the imported copy its own.
      expect(Object.keys(workflow)).not.toContain('id');
      expect(Object.keys(workflow)).not.toContain('versionId');
      expect(workflow.settings).toEqual({ executionOrder: 'v1' });
    });

    it('has a sticky note that says what to set, and tidy positions', () => {
      const notes = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
      expect(notes).toHaveLength(1);
      const content = String(notes[0]!.parameters.content);
      expect(content).toMatch(/^## /);
      expect(content).toContain('### Set up');
      expect(content).toContain(`**${TEMPLATE_CREDENTIAL_NAME}**`);
      // n8n 2 activates a workflow with its Publish button: there is no Activate toggle to find.
      expect(content).toContain('**Publish**');
      expect(content).not.toMatch(/\bactivate the workflow/i);
      if (workflow.nodes.some((node) => node.name === CHAT_WEBHOOK_NODE)) expect(content).toContain(`**${CHAT_WEBHOOK_NODE}**`);
      for (const node of workflow.nodes) for (const coordinate of node.position) expect(coordinate % 20).toBe(0);
    });

    it('uses the package nodes by their installed type, the credential by name only, with parameters the node has', () => {
      const pagerly = workflow.nodes.filter(isPagerlyNode);
      expect(pagerly.length).toBeGreaterThan(0);
      for (const node of pagerly) {
        const description = descriptions[node.type];
        expect(description).toBeDefined();
        expect(node.typeVersion).toBe(description!.version);
        // Name only (id null): n8n's import and the editor pick the user's credential of that name and type.
        expect(node.credentials).toEqual({ [CREDENTIAL.name]: { id: null, name: TEMPLATE_CREDENTIAL_NAME } });
        const shown = shownProperties(description!.properties, node.parameters);
        const unknown = Object.keys(node.parameters).filter((key) => !shown.has(key) && !(key === 'pollTimes' && description!.polling));
        expect(unknown).toEqual([]);
        expect(Object.entries(node.parameters).flatMap(([key, value]) => (shown.has(key) ? badValues(shown.get(key)!, value, key) : []))).toEqual([]);
        // n8n's own check for required parameters left empty (what the editor marks in red).
        const issues = NodeHelpers.getNodeParametersIssues(description!.properties, { ...node, parameters: node.parameters } as unknown as INode, description!);
        expect(issues).toBeNull();
      }
    });

    it("posts to the chat in Slack's incoming-webhook format, at the URL of one named node", () => {
      const posts = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.httpRequest');
      if (posts.length === 0) return;
      const urlNode = nodeNamed(workflow, CHAT_WEBHOOK_NODE);
      expect(urlNode.type).toBe('n8n-nodes-base.set');
      const field = (urlNode.parameters.assignments as { assignments: { name: string; value: string }[] }).assignments.find(
        (a) => a.name === CHAT_WEBHOOK_FIELD,
      );
      expect(field?.value).toMatch(/^https:\/\/hooks\.slack\.com\/services\/PASTE\//);
      for (const post of posts) {
        expect(post.parameters.method).toBe('POST');
        expect(post.parameters.url).toBe(`={{ $('${CHAT_WEBHOOK_NODE}').first().json.${CHAT_WEBHOOK_FIELD} }}`);
        expect(post.parameters.jsonBody).toBe('={{ JSON.stringify({ text: $json.text }) }}');
      }
    });
  });
});

describe('on-call change to chat: the message', () => {
  const { workflow } = n8nTemplate(TEMPLATE_JOBS.onCallChange);
  const code = codeOf(workflow, 'Write one message per team');
  const change = (type: string, team: string, name: string): Item => ({
    json: {
      type,
      team: { id: `team_${team}`, name: team },
      user: { id: `usr_${name}`, name, email: `${name}@x.example` },
      detected_at: '2026-11-02T09:00:00Z',
    },
  });

  it('is one per team, naming the team, who came on and who went off, escaped for Slack', async () => {
    const out = await runCodeNode(code, {
      items: [
        change('on_call_ended', 'R&D <core>', 'Ada'),
        change('on_call_started', 'R&D <core>', 'Grace <g>'),
        change('on_call_started', 'Payments', 'Alan'),
      ],
    });
    expect(out.map((item) => item.json.text)).toEqual([
      ':rotating_light: *On call in R&amp;D &lt;core&gt;* has changed\nNow on call: Grace &lt;g&gt;\nOff call: Ada',
      ':rotating_light: *On call in Payments* has changed\nNow on call: Alan',
    ]);
  });
});

describe('failed deploy to incident: which incident', () => {
  const { workflow } = n8nTemplate(TEMPLATE_JOBS.failedDeploy);
  const decide = codeOf(workflow, 'Decide what to do');
  const remember = codeOf(workflow, 'Remember the open incident');
  const forget = codeOf(workflow, 'Forget the resolved incident');
  const deploy = (status: string, service = 'checkout') => ({ json: { body: { status, service } } });

  it('opens one on a failure, none on the next failure, resolves the same on a success, and forgets it', async () => {
    const staticData: Record<string, unknown> = {};
    const [open] = await runCodeNode(decide, { items: [deploy('failure')], staticData });
    expect(open!.json).toMatchObject({ action: 'open', service: 'checkout', title: 'Deploy of checkout failed' });
    const incident = { json: { id: 'inc_7', title: 'Deploy of checkout failed', status: 'triggered' } };
    await runCodeNode(remember, { items: [incident], nodes: { 'Decide what to do': open! }, staticData });
    expect(await runCodeNode(decide, { items: [deploy('failure')], staticData })).toEqual([]);
    // Another service's failure is its own incident.
    expect((await runCodeNode(decide, { items: [deploy('failure', 'search')], staticData }))[0]!.json.action).toBe('open');
    const [resolve] = await runCodeNode(decide, { items: [deploy('SUCCESS')], staticData });
    expect(resolve!.json).toEqual({ action: 'resolve', service: 'checkout', id: 'inc_7', title: 'Deploy of checkout failed' });
    await runCodeNode(forget, { items: [{ json: { ...incident.json, status: 'resolved' } }], nodes: { 'Decide what to do': resolve! }, staticData });
    expect(staticData.openIncidents).toEqual({});
    expect(await runCodeNode(decide, { items: [deploy('success')], staticData })).toEqual([]);
  });

  it('is closed by default: its Webhook takes Header Auth, by a credential its note names, and the note sends the header', () => {
    // n8n's Webhook node (n8n-nodes-base, nodes/Webhook/description.js and utils.js): the
    // `authentication` option `headerAuth` takes an `httpHeaderAuth` credential (a header's name
    // and value) and answers 403 when the header is missing or holds another value.
    const webhook = nodeOfType(workflow, 'n8n-nodes-base.webhook');
    expect(webhook.parameters.authentication).toBe('headerAuth');
    expect(webhook.credentials).toEqual({ [DEPLOY_WEBHOOK_CREDENTIAL.type]: { id: null, name: DEPLOY_WEBHOOK_CREDENTIAL.name } });
    const note = String(workflow.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote')!.parameters.content);
    expect(note).toContain(`**${DEPLOY_WEBHOOK_CREDENTIAL.name}** (type Header Auth), **Name** \`${DEPLOY_WEBHOOK_CREDENTIAL.header}\``);
    expect(note).toMatch(/secret store/);
    // The one call the note shows sends the header, its value from the pipeline's environment (never written in the file).
    const curl = note.split('\n').find((line) => line.includes('curl '))!;
    expect(curl).toContain(`-H "${DEPLOY_WEBHOOK_CREDENTIAL.header}: $DEPLOY_WEBHOOK_TOKEN"`);
    expect(note).not.toMatch(/Anyone who knows the webhook's URL can post/);
  });

  it("says in its note that overlapping executions can overwrite each other's record", () => {
    // n8n loads the static data when an execution starts and saves all of it when it ends.
    const note = String(workflow.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote')!.parameters.content);
    expect(note).toMatch(/overlap.*overwrite each other's record, for one service or several/);
  });

  it('keeps nothing when Pagerly gave no id, and says so', async () => {
    const staticData: Record<string, unknown> = {};
    const [open] = await runCodeNode(decide, { items: [deploy('failure')], staticData });
    await expect(
      runCodeNode(remember, { items: [{ json: { id: '', note: 'no id in the answer' } }], nodes: { 'Decide what to do': open! }, staticData }),
    ).rejects.toThrow(/gave no id.*no id in the answer/);
    expect(staticData.openIncidents).toBeUndefined();
  });

  it('takes a service named like an Object property for a service', async () => {
    for (const service of ['constructor', '__proto__', 'toString']) {
      const [open] = await runCodeNode(decide, { items: [deploy('failure', service)], staticData: { openIncidents: {} } });
      expect(open?.json.action).toBe('open');
      expect(await runCodeNode(decide, { items: [deploy('success', service)], staticData: { openIncidents: {} } })).toEqual([]);
    }
  });

  it('refuses a deploy without a service or with another status, naming the field', async () => {
    await expect(runCodeNode(decide, { items: [{ json: { body: { status: 'failure' } } }] })).rejects.toThrow(/"service"/);
    await expect(runCodeNode(decide, { items: [deploy('cancelled')] })).rejects.toThrow(/"status" of "success" or "failure", got "cancelled"/);
  });
});

describe('morning digest: one message at any size', () => {
  const { workflow } = n8nTemplate(TEMPLATE_JOBS.morningDigest);
  const code = codeOf(workflow, 'Write the digest');
  /** What Get Many gives for every team: an item per person on call, `people` a team. */
  const organisation = (teams: number, people = 2): Item[] =>
    Array.from({ length: teams }, (_, t) =>
      Array.from({ length: people }, (_, p) => ({
        json: { id: `usr_${t}_${p}`, name: `Person ${p} of <team> ${t} & co`, team: { id: `team_${t}`, name: `Team ${t}` } },
      })),
    ).flat();
  /** Counts the reads of the items' fields: the work the code does on the data. */
  const counted = (items: Item[]) => {
    let reads = 0;
    const watch = <T extends object>(value: T): T =>
      new Proxy(value, {
        get(target, key, receiver) {
          reads++;
          const inner = Reflect.get(target, key, receiver);
          return inner && typeof inner === 'object' ? watch(inner) : inner;
        },
      });
    return { items: items.map(watch), reads: () => reads };
  };
  const SLACK_TEXT_LIMIT = 4_000;

  it('lists every team of a small organisation, grouped, escaped', async () => {
    const [digest, ...more] = await runCodeNode(code, { items: organisation(3) });
    expect(more).toEqual([]);
    const text = String(digest!.json.text);
    expect(text.split('\n')).toEqual([
      ':sunrise: *Who is on call today* (3 teams)',
      ...[0, 1, 2].map((t) => `• *Team ${t}*: ${escapeForSlack(`Person 0 of <team> ${t} & co`)}, ${escapeForSlack(`Person 1 of <team> ${t} & co`)}`),
    ]);
  });

  it('says so when nobody is on call (Get Many gives one empty item)', async () => {
    const [digest] = await runCodeNode(code, { items: [{ json: {} }] });
    expect(digest!.json.text).toBe(':sunrise: *Who is on call today* (0 teams)\nNobody is on call in any team.');
  });

  it('at 2,000 teams: one message, under Slack’s limit, "…and K more teams", linear work', async () => {
    const small = counted(organisation(2_000));
    const out = await runCodeNode(code, { items: small.items });
    expect(out).toHaveLength(1);
    const { text, teams, listed } = out[0]!.json as { text: string; teams: number; listed: number };
    expect(teams).toBe(2_000);
    expect(text.length).toBeLessThanOrEqual(3_500);
    expect(text.length).toBeLessThan(SLACK_TEXT_LIMIT);
    expect(listed).toBeGreaterThan(0);
    expect(text.split('\n')).toHaveLength(1 + listed + 1);
    expect(text.endsWith(`…and ${2_000 - listed} more teams`)).toBe(true);

    // Ten times the organisation: the same bounded message, ten times the reads (one pass).
    const large = counted(organisation(20_000));
    const [bigger] = await runCodeNode(code, { items: large.items });
    expect(String(bigger!.json.text).length).toBeLessThanOrEqual(3_500);
    expect(bigger!.json.listed).toBe(listed);
    expect(large.reads() / small.reads()).toBeGreaterThan(9);
    expect(large.reads() / small.reads()).toBeLessThan(11);
  });

  it('at 2,000 teams whose lines fill the message to the brim: the closing line still fits', async () => {
    // 5 names of n characters a team, team names of one width: each line is 23 + 5n characters.
    // Find n and a count of lines that would end within 20 characters of 3,500, too close for the closing line.
    const header = ':sunrise: *Who is on call today* (2000 teams)'.length;
    const fit = Array.from({ length: 60 }, (_, i) => i + 1)
      .flatMap((n) => Array.from({ length: 40 }, (_, k) => ({ n, lines: k + 1, total: header + (k + 1) * (24 + 5 * n) })))
      .find(({ total }) => total > 3_480 && total <= 3_500);
    expect(fit).toBeDefined();
    const items = Array.from({ length: 2_000 }, (_, t) =>
      Array.from({ length: 5 }, (_, p) => ({ json: { name: `${p}`.padEnd(fit!.n, 'x'), team: { id: `t${t}`, name: `Team ${String(t).padStart(4, '0')}` } } })),
    ).flat();
    const [digest] = await runCodeNode(code, { items });
    const text = String(digest!.json.text);
    expect(text.length).toBeLessThanOrEqual(3_500);
    expect(text).toMatch(/…and \d+ more teams$/);
  });

  it('bounds one team of many people and very long names', async () => {
    const crowd = Array.from({ length: 500 }, (_, p) => ({ json: { name: `${'x'.repeat(5_000)}${p}`, team: { id: 't', name: '&'.repeat(5_000) } } }));
    const [digest] = await runCodeNode(code, { items: crowd });
    const text = String(digest!.json.text);
    expect(text.length).toBeLessThanOrEqual(3_500);
    expect(text).toContain('and 495 more');
    // Clipped before escaping: no entity cut in half.
    expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
  });
});
