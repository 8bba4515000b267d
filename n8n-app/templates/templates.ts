import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREDENTIAL, PACKAGE_NAME } from '../names.ts';

/**
 * The n8n workflow templates: `templates/<job>/n8n.json` beside the other platforms' files
 * for the same job. They are committed as users import them (Import from File, or
 * `n8n import:workflow`), so they name the nodes as the installed community package does
 * (`n8n-nodes-pagerly.pagerly`) and the credential by name only, which n8n resolves on import.
 */
export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url));
export const N8N_TEMPLATE_FILE = 'n8n.json';
/** The credential every template's Pagerly nodes name; n8n picks the user's credential of that name and type. */
export const TEMPLATE_CREDENTIAL_NAME = 'Pagerly account';
/**
 * The deploy template's webhook is closed by default: its Webhook node uses n8n's Header Auth
 * (`authentication: 'headerAuth'`, a credential of n8n's type `httpHeaderAuth`: a header's name
 * and value), named here with no id as the Pagerly credential is. n8n answers a call without
 * that header, or with another value, 403 before the workflow runs.
 */
export const DEPLOY_WEBHOOK_CREDENTIAL = { type: 'httpHeaderAuth', name: 'Pagerly deploy webhook', header: 'X-Deploy-Token' } as const;
/** The one node a user edits to point the chat step at their incoming webhook. */
export const CHAT_WEBHOOK_NODE = 'Chat webhook URL';
export const CHAT_WEBHOOK_FIELD = 'webhookUrl';

/** The jobs with an n8n template, by their folder under templates/. */
export const TEMPLATE_JOBS = {
  onCallChange: 'on-call-change-to-chat',
  failedDeploy: 'failed-deploy-incident',
  morningDigest: 'morning-on-call-digest',
} as const;
export type TemplateJob = (typeof TEMPLATE_JOBS)[keyof typeof TEMPLATE_JOBS];

export interface TemplateNode {
  id: string;
  name: string;
  type: string;
  typeVersion: number;
  position: [number, number];
  parameters: Record<string, unknown>;
  credentials?: Record<string, { id: string | null; name: string }>;
  webhookId?: string;
  [key: string]: unknown;
}
export interface TemplateWorkflow {
  name: string;
  nodes: TemplateNode[];
  connections: Record<string, { main: { node: string; type: string; index: number }[][] }>;
  settings?: Record<string, unknown>;
  [key: string]: unknown;
}
export interface Template {
  readonly job: string;
  /** Relative to the repository root, e.g. `templates/on-call-change-to-chat/n8n.json`. */
  readonly file: string;
  readonly workflow: TemplateWorkflow;
}

/** Every `templates/<job>/n8n.json`, in folder order. */
export function n8nTemplates(dir = TEMPLATES_DIR): Template[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, N8N_TEMPLATE_FILE)))
    .map((entry) => entry.name)
    .sort()
    .map((job) => ({
      job,
      file: `templates/${job}/${N8N_TEMPLATE_FILE}`,
      workflow: JSON.parse(readFileSync(join(dir, job, N8N_TEMPLATE_FILE), 'utf8')) as TemplateWorkflow,
    }));
}

export function n8nTemplate(job: TemplateJob, dir = TEMPLATES_DIR): Template {
  const template = n8nTemplates(dir).find((candidate) => candidate.job === job);
  if (!template) throw new Error(`No n8n template for the job "${job}" in ${dir}`);
  return template;
}

/** The node type of one of the package's nodes as an installed community package names it. */
export const packageNodeType = (node: string) => `${PACKAGE_NAME}.${node}`;
export const isPagerlyNode = (node: Pick<TemplateNode, 'type'>) => node.type.startsWith(`${PACKAGE_NAME}.`);
export const pagerlyCredentialOf = (node: TemplateNode) => node.credentials?.[CREDENTIAL.name];

export const nodeOf = (workflow: TemplateWorkflow, predicate: (node: TemplateNode) => boolean, what: string): TemplateNode => {
  const node = workflow.nodes.find(predicate);
  if (!node) throw new Error(`The workflow "${workflow.name}" has no ${what}`);
  return node;
};
export const nodeNamed = (workflow: TemplateWorkflow, name: string) => nodeOf(workflow, (node) => node.name === name, `node "${name}"`);
export const nodeOfType = (workflow: TemplateWorkflow, type: string) => nodeOf(workflow, (node) => node.type === type, `${type} node`);

/**
 * The template as a user leaves it after doing what its sticky note says: the chat webhook
 * URL pasted into its one node, and (for a test) other parameters changed by `edit`. A copy:
 * the template itself is untouched.
 */
export function configured(workflow: TemplateWorkflow, options: { chatWebhookUrl?: string; edit?: (copy: TemplateWorkflow) => void } = {}): TemplateWorkflow {
  const copy = structuredClone(workflow);
  if (options.chatWebhookUrl !== undefined) {
    const assignments = (nodeNamed(copy, CHAT_WEBHOOK_NODE).parameters.assignments as { assignments: { name: string; value: unknown }[] }).assignments;
    const field = assignments.find((assignment) => assignment.name === CHAT_WEBHOOK_FIELD);
    if (!field) throw new Error(`"${CHAT_WEBHOOK_NODE}" sets no ${CHAT_WEBHOOK_FIELD}`);
    field.value = options.chatWebhookUrl;
  }
  options.edit?.(copy);
  return copy;
}

/** The JavaScript of a Code node. */
export const codeOf = (workflow: TemplateWorkflow, name: string): string => {
  const code = nodeNamed(workflow, name).parameters.jsCode;
  if (typeof code !== 'string') throw new Error(`"${name}" is not a Code node with JavaScript`);
  return code;
};
