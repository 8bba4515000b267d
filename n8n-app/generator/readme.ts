import { connection } from '../../shared/operations/connection.ts';
import { operations as allOperations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { N8N_VERSION } from '../engine/cache.ts';
import { ACTION_NODE, BASE_URL_FIELD, CREDENTIAL, PACKAGE_NAME, TRIGGER_NODE } from '../names.ts';
import { n8nNodeName } from '../operation-names.ts';
import { collectionOf, parametersOf } from '../parameters.ts';
import { hookOperation, nodeOperationsOf } from '../runtime/operations.ts';
import { DELETED } from '../runtime/execute.ts';
import { POLLING_NOTICE, TRIGGER_DESCRIPTION } from './descriptions.ts';
import { ROTATIONS_SEGMENT } from '../../shared/settings.ts';
import { resources } from './properties.ts';
import { description, n8nWords } from './wording.ts';

/** The n8n versions `npm run n8n:e2e` runs the package on (each line named in the README's compatibility). */
export const TESTED_N8N_VERSIONS: readonly string[] = [N8N_VERSION];

/**
 * A workflow a user can import (paste into the editor; n8n then asks for the credential in
 * each node): the trigger on one team, then the
 * directory entry of each person who went on or off call, found by the e-mail the trigger gives.
 */
export function exampleWorkflow(operations: readonly Operation[] = allOperations) {
  const hook = hookOperation(operations);
  const team = hook.inputFields.find((field) => field.dynamic === 'team');
  const lookup = nodeOperationsOf(operations).find((op) => op.kind === 'search' && op.results === 'single');
  const email = lookup?.inputFields.find((field) => field.required);
  const trigger = {
    parameters: parametersOf(hook, team ? { [team.key]: 'Payments' } : {}),
    name: TRIGGER_NODE.displayName,
    type: `${PACKAGE_NAME}.${TRIGGER_NODE.name}`,
    typeVersion: 1,
    position: [0, 0],
  };
  const nodes: Record<string, unknown>[] = [trigger];
  const connections: Record<string, unknown> = {};
  if (lookup && email) {
    const { resource, operation, action } = n8nNodeName(lookup);
    nodes.push({
      parameters: { resource, operation, ...parametersOf(lookup, { [email.key]: '={{ $json.user.email }}' }) },
      name: action,
      type: `${PACKAGE_NAME}.${ACTION_NODE.name}`,
      typeVersion: 1,
      position: [220, 0],
    });
    connections[trigger.name] = { main: [[{ node: action, type: 'main', index: 0 }]] };
  }
  return { name: 'Pagerly: on-call changes with directory entries', nodes, connections, settings: { executionOrder: 'v1' } };
}

/** The package's README, as n8n's community-package listing and npm show it. */
export function readme(operations: readonly Operation[] = allOperations): string {
  const words = n8nWords;
  const rows = resources(operations).flatMap((group) =>
    group.operations.map((op) => {
      const { label, action } = n8nNodeName(op);
      const optional = op.inputFields.filter((field) => !field.required).length;
      const inCollection = optional ? ` Optional fields: ${collectionOf(op).displayName}.` : '';
      return `| ${group.name} | ${label} | ${action} | ${description(words(op.description))}${inCollection} |`;
    }),
  );
  const deleteOperations = nodeOperationsOf(operations).filter((op) => op.kind === 'action' && op.effect === 'delete');
  return `# ${PACKAGE_NAME}

This is an n8n community node package. It lets you use Pagerly, an on-call and incident
service, in your n8n workflows: page the people on call with an incident, keep the on-call
directory in sync with another system, look up who is on call, and start a workflow when
someone goes on or off call.

[Installation](#installation) · [Credentials](#credentials) · [Operations](#operations) ·
[Trigger](#trigger) · [Example workflow](#example-workflow) · [Compatibility](#compatibility)

## Installation

In n8n (self-hosted, as the instance owner or an admin): **Settings → Community Nodes →
Install**, enter \`${PACKAGE_NAME}\`, confirm, and the **${ACTION_NODE.displayName}** and
**${TRIGGER_NODE.displayName}** nodes appear in the nodes panel. See n8n's
[installation guide](https://docs.n8n.io/integrations/community-nodes/installation/).

With npm, for an instance run from the command line or a Docker image:

\`\`\`sh
mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install ${PACKAGE_NAME}
# then restart n8n
\`\`\`

## Credentials

**${CREDENTIAL.displayName}**: ${connection.apiKeyField.help} Paste the key into **${connection.apiKeyField.label}**;
n8n sends it as the \`X-APIKEY\` header. Its **Test** lists the teams with the key at the rotations
base (**Rotations Base URL**, or the Base URL followed by \`${ROTATIONS_SEGMENT}\`), so a base that
cannot serve teams fails there, naming the field to fix.
**Base URL** (\`${BASE_URL_FIELD}\`) changes only for a proxy or a test service.

## Operations

The **${ACTION_NODE.displayName}** node: choose a resource, then an operation. Required fields
come first; optional ones are added from **Additional Fields** (Create), **Update Fields**
(Update: a field not added keeps its value) or **Filters** (Get Many). A team is picked
**From List** or typed **By Name**. Get Many returns every result with **Return All**, else
up to **Limit**. ${deleteOperations.length ? `Delete outputs \`${JSON.stringify(DELETED)}\`. ` : ''}Failures are n8n errors with the
service's message; with **Continue On Fail** a failed item outputs \`{ "error": "…" }\` and the
others go on. The node can be used as a tool by n8n's AI Agent.

| Resource | Operation | Action | What it does |
| --- | --- | --- | --- |
${rows.join('\n')}

## Trigger

**${TRIGGER_NODE.displayName}** is a polling trigger: it ${TRIGGER_DESCRIPTION.replace(/^Starts/, 'starts')}. ${POLLING_NOTICE}

Polling, not instant: Pagerly documents no webhook n8n could subscribe to, so a change reaches
the workflow at the next poll (up to one **Poll Times** interval late) rather than when it
happens. Each item is one change: \`type\` (\`on_call_started\` or \`on_call_ended\`),
\`team\` (\`id\`, \`name\`), \`user\` (\`id\`, \`name\`, \`email\`, \`imageurl\`) and
\`detected_at\`. **Fetch Test Event** shows the people on call now and leaves the next poll's
comparison alone. **Filters → Team** watches one team instead of every team.

## Example workflow

Copy this JSON and paste it into the n8n editor (or **Import from File**), then choose your
${CREDENTIAL.displayName} credential in both nodes: when someone goes on or off call in Payments,
it gets that person's directory entry (phone number and role).

\`\`\`json
${JSON.stringify(exampleWorkflow(operations), null, 2)}
\`\`\`

## Compatibility

- Tested on n8n ${TESTED_N8N_VERSIONS.join(', ')} (the package's end-to-end run on the real engine:
  credential test, team list, every operation, the polling trigger).
- Node.js 22 or later, as n8n 2 requires.
- Queue mode: the trigger's poll runs on the main instance, like every n8n poller, and keeps
  who was on call in the workflow's static data, which n8n stores in its database; the
  operations run on workers like any node.
- Self-hosted n8n: community packages are installed by an instance owner or admin.

## Resources

- [n8n community nodes documentation](https://docs.n8n.io/integrations/#community-nodes)
- [Pagerly API](https://api.pagerly.io/docs)
`;
}
