// The n8n templates (templates/<job>/n8n.json) on the real engine, in the instance the
// scenario already runs: each imported as a user imports it (the workflow file posted to n8n's
// REST API, as the editor saves an imported file), the credential found by its name, the chat
// webhook pointed at a loopback receiver, then run against the sandbox.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox/index.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { type EngineLine, lineDir, repoRoot } from '../engine/cache.ts';
import { CREDENTIAL } from '../names.ts';
import {
  configured,
  DEPLOY_WEBHOOK_CREDENTIAL,
  isPagerlyNode,
  n8nTemplate,
  n8nTemplates,
  nodeOfType,
  pagerlyCredentialOf,
  TEMPLATE_CREDENTIAL_NAME,
  TEMPLATE_JOBS,
  type Template,
  type TemplateWorkflow,
} from '../templates/templates.ts';
import type { Cases } from './cases.ts';
import { expect, waitFor } from './cases.ts';
import { startChatReceiver } from './chat-receiver.ts';
import { executionsOf, onCallReads, scheduledPollRead, secondsFromNow } from './poll-runs.ts';
import type { N8nInstance } from './n8n-process.ts';
import type { N8nRest } from './rest.ts';
import { pollTimes } from './workflows.ts';

const HOUR = 3_600_000;
/** Slack's mrkdwn escapes, as the templates' Code nodes write them. */
const slackEscaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface TemplateContext {
  readonly check: Cases['check'];
  readonly rest: N8nRest;
  readonly n8nUrl: string;
  readonly sandbox: Sandbox;
  readonly sandboxUrl: string;
  readonly apiKey: string;
  /** The credential's fields for the sandbox. */
  readonly credentialData: Record<string, string>;
  /** Every request the sandbox received, in order (to see a scheduled poll). */
  readonly seen: readonly { method: string; path: string }[];
  readonly line: EngineLine;
}

interface Imported {
  id: string;
  versionId: string;
  nodes: TemplateWorkflow['nodes'];
}

/** Runs each template's case; every line of the report names the template's file. */
export async function runTemplateCases(context: TemplateContext): Promise<void> {
  const { check, rest, sandbox, sandboxUrl, apiKey } = context;
  const chat = await startChatReceiver();
  const reader = createNodeClient({ apiKey, baseUrl: sandboxUrl });
  const nodeTypes = new Set((await rest.file<{ name: string }[]>('/types/nodes.json')).map((type) => type.name));
  let credentialId = '';
  const activeIds: string[] = [];

  /** Posted to n8n as the file is, but for what the sticky note asks a user to set; checks n8n knows every node and found the credential. */
  const importTemplate = async (template: Template, workflow: TemplateWorkflow): Promise<Imported> => {
    const unknown = workflow.nodes.filter((node) => !nodeTypes.has(node.type)).map((node) => `${node.name} (${node.type})`);
    expect(unknown.length === 0, `n8n does not know ${unknown.join(', ')}`);
    const saved = await rest.request<Imported>('POST', '/workflows', workflow);
    for (const node of saved.nodes.filter(isPagerlyNode)) {
      const credential = pagerlyCredentialOf(node);
      expect(
        credential?.id === credentialId,
        `${template.file}: "${node.name}" was not given the credential "${TEMPLATE_CREDENTIAL_NAME}" on import (${JSON.stringify(credential)})`,
      );
    }
    return saved;
  };
  const activate = async (saved: Imported) => {
    await rest.request('POST', `/workflows/${saved.id}/activate`, { versionId: saved.versionId });
    activeIds.push(saved.id);
  };
  const deactivate = async (id: string) => {
    await rest.request('POST', `/workflows/${id}/deactivate`, {});
    activeIds.splice(activeIds.indexOf(id), 1);
  };
  /** The workflow's executions once `count` have ended, none failed. */
  const executionsEnded = async (id: string, count: number) => {
    const ended = await waitFor(`${count} executions of workflow ${id}`, async () => {
      const all = await executionsOf(rest, id);
      const done = all.filter((e) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting');
      return done.length >= count ? done : undefined;
    });
    const failed = ended.filter((e) => e.status !== 'success');
    expect(failed.length === 0, `execution ${failed.map((e) => `${e.id} ${e.status}`).join(', ')}`);
    return ended;
  };

  try {
    await check(`templates: credential "${TEMPLATE_CREDENTIAL_NAME}" for the templates`, async () => {
      const saved = await rest.request<{ id: string }>('POST', '/credentials', {
        name: TEMPLATE_CREDENTIAL_NAME,
        type: CREDENTIAL.name,
        data: context.credentialData,
      });
      credentialId = saved.id;
      return `saved (${saved.id}); the templates name it, with no id`;
    });

    const digest = n8nTemplate(TEMPLATE_JOBS.morningDigest);
    await check(`template ${digest.file}: one message, every team`, async () => {
      const saved = await importTemplate(digest, configured(digest.workflow, { chatWebhookUrl: chat.urlFor(digest.job) }));
      const trigger = nodeOfType(digest.workflow, 'n8n-nodes-base.scheduleTrigger');
      const run = await rest.request<{ executionId?: string }>('POST', `/workflows/${saved.id}/run`, { triggerToStartFrom: { name: trigger.name } });
      expect(typeof run.executionId === 'string', `n8n answered ${JSON.stringify(run)}`);
      await waitFor('the manual run to end', async () =>
        (await executionsOf(rest, saved.id)).find((e) => e.id === run.executionId && e.status !== 'running' && e.status !== 'new'),
      );
      await executionsEnded(saved.id, 1);
      const messages = chat.messagesOf(digest.job);
      expect(messages.length === 1, `${messages.length} messages posted`);
      const [message] = messages;
      expect(message!.contentType.startsWith('application/json'), `posted as ${message!.contentType}`);
      const teams = await reader.listTeams();
      const onCall = (
        await Promise.all(teams.map(async (team) => ({ team: team.name, people: await reader.listOnCallUsers({ teamname: team.name }) })))
      ).filter((t) => t.people.length > 0);
      expect(message!.text.includes(`(${onCall.length} teams)`), `the message does not count ${onCall.length} teams: ${message!.text.slice(0, 200)}`);
      for (const { team, people } of onCall) {
        expect(message!.text.includes(`*${slackEscaped(team)}*`), `the message does not name ${team}`);
        for (const person of people) expect(message!.text.includes(slackEscaped(person.name)), `the message does not name ${person.name} (${team})`);
      }
      return `execution ${run.executionId}: 1 message, ${onCall.length} teams, ${onCall.reduce((n, t) => n + t.people.length, 0)} people, ${message!.text.length} characters`;
    });

    const deploys = n8nTemplate(TEMPLATE_JOBS.failedDeploy);
    const webhook = nodeOfType(deploys.workflow, 'n8n-nodes-base.webhook');
    const url = `${context.n8nUrl}/webhook/${String(webhook.parameters.path)}`;
    const service = 'checkout <eu> & co';
    const deployBody = (status: string) => JSON.stringify({ status, service, url: 'https://ci.example/run/42' });
    /** The webhook's answer to a deploy sent with these headers. */
    const callWebhook = async (status: string, headers: Record<string, string>) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: deployBody(status) });
      return { status: response.status, text: (await response.text()).slice(0, 200) };
    };
    // n8n 2.41 registers an activated workflow's webhook a moment after answering: a CORS
    // preflight lists the webhook's methods once it is there, and starts no execution.
    const webhookRegistered = () =>
      waitFor('the webhook to be registered', async () => {
        const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1', 'access-control-request-method': 'POST' } });
        await preflight.arrayBuffer();
        return preflight.status === 204 && /POST/.test(preflight.headers.get('access-control-allow-methods') ?? '') ? true : undefined;
      });

    // Before the Header Auth credential exists, as a user who skipped that step of the note has it.
    await check(`template ${deploys.file}: without its Header Auth credential, nothing can open an incident`, async () => {
      const saved = await importTemplate(deploys, configured(deploys.workflow));
      const incidents = sandbox.world.incidents.size;
      const activation = await rest.request('POST', `/workflows/${saved.id}/activate`, { versionId: saved.versionId }).then(
        () => undefined,
        (error: Error) => error,
      );
      let said: string;
      if (activation) said = `publishing refused: ${activation.message.slice(0, 160)}`;
      else {
        activeIds.push(saved.id);
        await webhookRegistered();
        const answer = await callWebhook('failure', {});
        expect(answer.status >= 400, `the webhook answered ${answer.status} with no credential set: ${answer.text}`);
        said = `published; a call answered ${answer.status} ${answer.text}`;
        await deactivate(saved.id);
      }
      const ran = await executionsOf(rest, saved.id);
      expect(ran.length === 0, `${ran.length} executions started`);
      expect(sandbox.world.incidents.size === incidents, `${sandbox.world.incidents.size - incidents} incidents opened`);
      return `${said}; no execution, no incident`;
    });

    await check(`template ${deploys.file}: only a call with its header runs it: fail opens, fail again opens none, success resolves`, async () => {
      // The credential the note asks for, a secret of the pipeline's as the note says to make it.
      const token = randomBytes(32).toString('hex');
      const headerCredential = await rest.request<{ id: string }>('POST', '/credentials', {
        name: DEPLOY_WEBHOOK_CREDENTIAL.name,
        type: DEPLOY_WEBHOOK_CREDENTIAL.type,
        data: { name: DEPLOY_WEBHOOK_CREDENTIAL.header, value: token },
      });
      const saved = await importTemplate(deploys, configured(deploys.workflow));
      const given = saved.nodes.find((node) => node.name === webhook.name)?.credentials?.[DEPLOY_WEBHOOK_CREDENTIAL.type];
      expect(given?.id === headerCredential.id, `"${webhook.name}" was not given "${DEPLOY_WEBHOOK_CREDENTIAL.name}" on import (${JSON.stringify(given)})`);
      await activate(saved);
      await webhookRegistered();
      let posted = 0;
      const withHeader = { [DEPLOY_WEBHOOK_CREDENTIAL.header]: token };
      const deploy = async (status: string) => {
        const answer = await callWebhook(status, withHeader);
        expect(answer.status === 200, `the webhook answered ${answer.status}: ${answer.text}`);
        await executionsEnded(saved.id, ++posted);
      };
      /** Calls an attacker could make: none may start an execution nor change an incident. */
      const refused: string[] = [];
      const forged = async (status: string) => {
        const world = JSON.stringify([...sandbox.world.incidents.values()]);
        const calls: [string, Record<string, string>][] = [
          ['no header', {}],
          // The token with its last character changed, never to itself (a hex token ends in 0 one time in 16).
          ['a wrong value', { [DEPLOY_WEBHOOK_CREDENTIAL.header]: `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}` }],
          ['the value in another header', { authorization: `Bearer ${token}` }],
        ];
        for (const [what, headers] of calls) {
          const answer = await callWebhook(status, headers);
          expect(answer.status === 403 || answer.status === 401, `a ${status} with ${what} was answered ${answer.status}: ${answer.text}`);
          expect(!answer.text.includes(token), `the refusal with ${what} repeats the token`);
          refused.push(`${what} ${answer.status}`);
        }
        const ran = await executionsOf(rest, saved.id);
        expect(ran.length === posted, `${ran.length - posted} executions started by refused calls`);
        expect(JSON.stringify([...sandbox.world.incidents.values()]) === world, `a refused ${status} changed the incidents`);
      };
      const before = new Set(sandbox.world.incidents.keys());
      const opened = () => [...sandbox.world.incidents.values()].filter((incident) => !before.has(incident.id));

      await forged('failure');
      expect(opened().length === 0, `refused calls opened ${opened().length} incidents`);
      await deploy('failure');
      const first = opened();
      expect(first.length === 1, `${first.length} incidents opened by the first failure`);
      const incident = first[0]!;
      expect(incident.status === 'triggered' && incident.title.includes(service), `opened ${JSON.stringify(incident)}`);
      // A forged success must not resolve the incident the real failure opened.
      await forged('success');
      expect(
        sandbox.world.incidents.get(incident.id)?.status === 'triggered',
        `a refused success left ${incident.id} ${sandbox.world.incidents.get(incident.id)?.status}`,
      );
      await deploy('failure');
      expect(opened().length === 1, `a second failure in a row opened ${opened().length - 1} more`);
      await deploy('success');
      expect(opened().length === 1, `the success opened ${opened().length - 1} more`);
      expect(sandbox.world.incidents.get(incident.id)?.status === 'resolved', `incident ${incident.id} is ${sandbox.world.incidents.get(incident.id)?.status}`);
      await deploy('failure');
      const again = opened().filter((other) => other.id !== incident.id);
      expect(again.length === 1 && again[0]!.status === 'triggered', `after the resolve a failure opened ${again.length}`);
      await deactivate(saved.id);
      return `${posted} deploys with the header: ${incident.id} opened, kept, resolved; the next failure opened ${again[0]!.id}; refused (no execution, no change): ${[...new Set(refused)].join(', ')}`;
    });

    const changes = n8nTemplate(TEMPLATE_JOBS.onCallChange);
    await check(`template ${changes.file}: a handover names the team and both people`, async () => {
      const TEAM = 'Payments';
      // n8n's fastest polls: two fixed seconds of the minute, as the trigger case sets them,
      // closer together (the handover is one step; a poll missed at activation comes round
      // the next minute, well within the wait).
      const FIRST_POLL_S = 8;
      const times = secondsFromNow([FIRST_POLL_S, 20]);
      const firstPollBy = Date.now() + FIRST_POLL_S * 1000;
      const workflow = configured(changes.workflow, {
        chatWebhookUrl: chat.urlFor(changes.job),
        edit: (copy) => {
          copy.nodes.find(isPagerlyNode)!.parameters.pollTimes = pollTimes(times);
        },
      });
      const saved = await importTemplate(changes, workflow);
      const people = async () => reader.listOnCallUsers({ teamname: TEAM });
      const first = await people();
      await activate(saved);
      const readsAtActivation = onCallReads(context.seen);
      // Past the first poll time, so the read seen is a scheduled poll's, not one n8n runs
      // at activation (2.41 keeps only what scheduled polls learn).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstPollBy - Date.now())));
      await scheduledPollRead(context.seen, readsAtActivation);
      await context.sandbox.clock.advance(12 * HOUR);
      const now = await people();
      const cameOn = now.filter((person) => !first.some((was) => was.id === person.id));
      const wentOff = first.filter((was) => !now.some((person) => person.id === was.id));
      expect(cameOn.length > 0 && wentOff.length > 0, `no handover in ${TEAM}`);
      const message = await waitFor(
        'a message about the handover',
        async () => chat.messagesOf(changes.job).find((m) => m.text.includes(`*On call in ${TEAM}*`)),
        75_000,
      );
      for (const person of cameOn)
        expect(message.text.includes(slackEscaped(person.name)), `the message does not name ${person.name}, who came on call: ${message.text}`);
      for (const person of wentOff)
        expect(message.text.includes(slackEscaped(person.name)), `the message does not name ${person.name}, who went off call: ${message.text}`);
      const [onLine, offLine] = [
        message.text.split('\n').find((l) => l.startsWith('Now on call')),
        message.text.split('\n').find((l) => l.startsWith('Off call')),
      ];
      expect(cameOn.every((p) => onLine?.includes(p.name)) && wentOff.every((p) => offLine?.includes(p.name)), `on and off swapped: ${message.text}`);
      await deactivate(saved.id);
      return `${times.join(' and ')}: "${message.text.replace(/\n/g, ' / ')}" (${chat.messagesOf(changes.job).length} messages)`;
    });
  } finally {
    for (const id of [...activeIds]) await deactivate(id).catch(() => undefined);
    await chat.close();
  }
}

/** One row of n8n's SQLite database, read with the engine's own sqlite3. */
function queryN8nDatabase<T>(line: EngineLine, folder: string, sql: string): Promise<T[]> {
  const engine = createRequire(join(lineDir(line), 'node_modules', 'n8n', 'package.json'));
  const sqlite3 = engine('sqlite3') as {
    Database: new (
      file: string,
      mode: number,
      callback: (error: Error | null) => void,
    ) => {
      all(sql: string, callback: (error: Error | null, rows: T[]) => void): void;
      close(callback?: () => void): void;
    };
    OPEN_READONLY: number;
  };
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(join(folder, '.n8n', 'database.sqlite'), sqlite3.OPEN_READONLY, (error) => {
      if (error) reject(error);
    });
    db.all(sql, (error, rows) => {
      db.close();
      if (error) reject(error);
      else resolve(rows);
    });
  });
}

/**
 * `n8n import:workflow` of every template file, copied unchanged into one folder (the server
 * stopped: the CLI writes the same SQLite database). n8n gives each its own id and each Pagerly
 * node the credential the template names, as the REST import does.
 */
export async function importTemplatesWithCli(check: Cases['check'], n8n: N8nInstance, line: EngineLine): Promise<void> {
  await check(`templates: n8n import:workflow of ${n8nTemplates().length} files as they are`, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pagerly-templates-'));
    try {
      const templates = n8nTemplates();
      for (const template of templates) copyFileSync(join(repoRoot, template.file), join(folder, `${template.job}.json`));
      const run = await n8n.cli(['import:workflow', '--separate', `--input=${folder}`]);
      expect(run.status === 0, `n8n import:workflow exited ${run.status}: ${(run.stderr || run.stdout).slice(-800)}`);
      const [credential] = await queryN8nDatabase<{ id: string }>(
        line,
        n8n.folder,
        `SELECT id FROM credentials_entity WHERE name = '${TEMPLATE_CREDENTIAL_NAME}'`,
      );
      expect(credential !== undefined, `no credential "${TEMPLATE_CREDENTIAL_NAME}" in n8n's database`);
      const [headerCredential] = await queryN8nDatabase<{ id: string }>(
        line,
        n8n.folder,
        `SELECT id FROM credentials_entity WHERE name = '${DEPLOY_WEBHOOK_CREDENTIAL.name}' AND type = '${DEPLOY_WEBHOOK_CREDENTIAL.type}'`,
      );
      const rows = await queryN8nDatabase<{ id: string; name: string; nodes: string }>(line, n8n.folder, 'SELECT id, name, nodes FROM workflow_entity');
      const said: string[] = [];
      for (const template of templates) {
        // The REST cases imported a copy or two already: the CLI's is the last.
        const copies = rows.filter((row) => row.name === template.workflow.name);
        expect(copies.length >= 2, `${template.file}: ${copies.length} workflows named "${template.workflow.name}"`);
        const imported = copies.at(-1)!;
        const nodes = JSON.parse(imported.nodes) as TemplateWorkflow['nodes'];
        const unresolved = nodes.filter((node) => isPagerlyNode(node) && pagerlyCredentialOf(node)?.id !== credential!.id).map((node) => node.name);
        expect(unresolved.length === 0, `${template.file}: no credential for ${unresolved.join(', ')}`);
        // The deploy webhook's Header Auth credential, found by its name as the Pagerly one is.
        for (const node of nodes.filter((candidate) => candidate.credentials?.[DEPLOY_WEBHOOK_CREDENTIAL.type])) {
          const given = node.credentials![DEPLOY_WEBHOOK_CREDENTIAL.type]!.id;
          expect(given !== null && given === headerCredential?.id, `${template.file}: "${node.name}" has no "${DEPLOY_WEBHOOK_CREDENTIAL.name}" (${given})`);
        }
        said.push(`${template.job} → ${imported.id}`);
      }
      return said.join(', ');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
}
