// One engine line's end to end (`npm run n8n:e2e` runs it for each line; alone:
// `node n8n-app/e2e/scenario.ts --line newest`): the built n8n package on the real n8n engine
// (installed into the cache on first use), against the sandbox, through n8n's own REST API and
// CLI. One line per case with its time; exit 1 on any failure.
import { parseArgs } from 'node:util';
import { createSandbox, demoKeys } from '../../sandbox/index.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { nodeOperations } from '../runtime/operations.ts';
import { n8nNodeName } from '../operation-names.ts';
import { builtPackage } from './built-package.ts';
import { DEFAULT_LINE, ensureEngine, LINES, lineDir } from '../engine/cache.ts';
import { CREDENTIAL, ROTATIONS_BASE_URL_FIELD, BASE_URL_FIELD, TEAM_SEARCH_METHOD, ACTION_NODE, TRIGGER_NODE, PACKAGE_NAME } from '../names.ts';
import { packageNodeType } from '../templates/templates.ts';
import { parameterPath } from '../parameters.ts';
import { outputKeys } from '../runtime/execute.ts';
import { connection } from '../../shared/operations/connection.ts';
import { REDIRECT_STATUSES } from '../../shared/http/redirect.ts';
import { ROTATIONS_SEGMENT } from '../../shared/settings.ts';
import { cases, expect, lineFromArgs, waitFor } from './cases.ts';
import { freePort, N8nInstance } from './n8n-process.ts';
import { N8nRest } from './rest.ts';
import { startRedirectServers, leaks } from './redirect-servers.ts';
import { actionsWorkflow, everyOperationPerCredential, nodeName, nodeType, pollTimes, triggerWorkflow, type CredentialRef } from './workflows.ts';
import { errorOf, executionsOf, itemsOf, onCallReads, scheduledPollRead, secondsFromNow, type ExecutionSummary } from './poll-runs.ts';
import { recordSenders } from './peer-process.ts';
import { installAsCommunityPackage } from './community-package.ts';
import { importTemplatesWithCli, runTemplateCases } from './template-cases.ts';
import { stopOnSignals } from './cleanup.ts';
import { join } from 'node:path';

const HOUR = 3_600_000;
const args = parseArgs({ options: { line: { type: 'string' }, package: { type: 'string' } } }).values;
const line = lineFromArgs(LINES, DEFAULT_LINE, args.line);
const { check, finish, results } = cases();
// Ctrl-C or SIGTERM: n8n (server or CLI) stopped and its user folder deleted.
stopOnSignals(`n8n ${line.n8n} end to end`);

console.log(`n8n ${line.n8n} end to end (${line.about}), engine ${lineDir(line)}`);
const engineOk = await check(`install n8n ${line.n8n} into the cache`, async () => {
  const steps = ensureEngine(line);
  return steps.map((s) => `${s.what}: ${s.reused ? 'cached' : `${s.seconds.toFixed(0)} s`}`).join('; ');
});
if (!engineOk) process.exit(1);

const packageDir = await builtPackage(args.package);
const sandbox = await createSandbox({ clock: { mode: 'fixed' } });
const sandboxUrl = await sandbox.listen();
// Every request the sandbox receives, in order: when a scheduled poll has read who is on call.
const senders = recordSenders(sandbox.app.server, () => []);
const hostile = await startRedirectServers(sandboxUrl);
const elsewhereHost = new URL(hostile.elsewhere).host;
const n8n = new N8nInstance(await freePort(), join(packageDir, 'dist'), { line });
// Also where n8n installs community packages, so the templates' nodes (named as users who
// install the package get them, `n8n-nodes-pagerly.*`) run in this same instance beside the
// cases' `CUSTOM.*` ones: the same built code, loaded twice.
installAsCommunityPackage(n8n.folder, packageDir);
const rest = new N8nRest(n8n.url);
const apiKey = demoKeys.acmeAdmin;
const credentialData = (key: string, base = sandboxUrl) => ({ [connection.apiKeyField.key]: key, [BASE_URL_FIELD]: base, [ROTATIONS_BASE_URL_FIELD]: '' });
const saveCredential = (name: string, base: string) =>
  rest.request<CredentialRef>('POST', '/credentials', { name, type: CREDENTIAL.name, data: credentialData(apiKey, base) });
/** The team resource locator's "From List", as the editor asks n8n for it. */
const teamOptions = async (saved: CredentialRef) => {
  const teamField = nodeOperations.flatMap((op) => op.inputFields.map((field) => ({ op, field }))).find(({ field }) => field.dynamic === 'team')!;
  const { resource, operation } = n8nNodeName(teamField.op);
  const answer = await rest.request<{ results: { name: string; value: string }[] }>('POST', '/dynamic-node-parameters/resource-locator-results', {
    nodeTypeAndVersion: { name: nodeType(ACTION_NODE.name), version: 1 },
    methodName: TEAM_SEARCH_METHOD,
    path: `parameters.${parameterPath(teamField.op, teamField.field).join('.')}`,
    currentNodeParameters: { resource, operation },
    credentials: { [CREDENTIAL.name]: { id: saved.id, name: saved.name } },
  });
  return answer.results;
};
/** The failure a promise ends in, or an error saying it succeeded. */
const failureOf = (work: Promise<unknown>) =>
  work.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value).slice(0, 200)}`);
    },
    (error: unknown) => error as Error,
  );
/** Nothing reached the other origin: the key went nowhere but the configured base. */
const nothingElsewhere = () =>
  expect(
    hostile.captured.length === 0,
    `${hostile.captured.length} requests reached ${elsewhereHost} (${leaks(hostile.captured, apiKey).length} with the key)`,
  );
let credential: CredentialRef | undefined;
let teams: string[] = [];

try {
  if (
    !(await check('n8n start, package loaded as custom extension and community package', async () => {
      await n8n.start();
      await rest.setUpOwner();
      const types = await rest.file<{ name: string }[]>('/types/nodes.json');
      const ours = types.filter((t) => t.name.startsWith('CUSTOM.') || t.name.startsWith(`${PACKAGE_NAME}.`)).map((t) => t.name);
      expect(ours.includes(nodeType(ACTION_NODE.name)), `the Pagerly node is not among n8n's node types (custom ones: ${ours.join(', ') || 'none'})`);
      expect(ours.includes(packageNodeType(ACTION_NODE.name)), `the Pagerly node is not among n8n's community nodes (${ours.join(', ') || 'none'})`);
      return `${n8n.url}, nodes ${ours.join(', ')}`;
    }))
  )
    throw new Error('n8n did not start');

  await check('credential test passes with a valid key', async () => {
    const saved = await rest.request<{ id: string; name: string }>('POST', '/credentials', {
      name: 'Pagerly (sandbox)',
      type: CREDENTIAL.name,
      data: credentialData(apiKey),
    });
    credential = { id: saved.id, name: saved.name };
    const result = await rest.request<{ status: string; message: string }>('POST', '/credentials/test', {
      credentials: { ...credential, type: CREDENTIAL.name, data: credentialData(apiKey) },
    });
    expect(result.status === 'OK', `n8n says ${result.status}: ${result.message}`);
    return `${result.status}: ${result.message}`;
  });

  await check('credential test fails on a bad key', async () => {
    const badKey = 'sbx_bad_key_e2e_0000000000000000';
    const saved = await rest.request<{ id: string; name: string }>('POST', '/credentials', {
      name: 'Pagerly (bad key)',
      type: CREDENTIAL.name,
      data: credentialData(badKey),
    });
    const result = await rest.request<{ status: string; message: string }>('POST', '/credentials/test', {
      credentials: { id: saved.id, name: saved.name, type: CREDENTIAL.name, data: credentialData(badKey) },
    });
    expect(result.status === 'Error', `expected Error, n8n says ${result.status}: ${result.message}`);
    expect(!JSON.stringify(result).includes(badKey), 'the answer repeats the key');
    return `${result.status}: ${result.message}`;
  });

  await check('credential test fails with the Base URL at the rotations address, naming Base URL', async () => {
    // The key check alone answers there too; the team list at Base URL + /pagerly does not.
    const data = credentialData(apiKey, `${sandboxUrl}${ROTATIONS_SEGMENT}`);
    const saved = await rest.request<{ id: string; name: string }>('POST', '/credentials', {
      name: 'Pagerly (rotations address)',
      type: CREDENTIAL.name,
      data,
    });
    const result = await rest.request<{ status: string; message: string }>('POST', '/credentials/test', {
      credentials: { id: saved.id, name: saved.name, type: CREDENTIAL.name, data },
    });
    expect(result.status === 'Error', `expected Error, n8n says ${result.status}: ${result.message}`);
    expect(/check Base URL/i.test(result.message), `the message does not name the field: ${result.message}`);
    return `${result.status}: ${result.message}`;
  });

  await check('team resource locator (listSearch) lists the teams', async () => {
    expect(credential !== undefined, 'no saved credential');
    const options = await teamOptions(credential!);
    const expected = (await createNodeClient({ apiKey, baseUrl: sandboxUrl }).listTeams()).map((team) => team.name);
    teams = options.map((option) => option.value);
    expect(JSON.stringify(options.map((o) => o.name)) === JSON.stringify(expected), `dropdown ${JSON.stringify(options)} ≠ teams ${JSON.stringify(expected)}`);
    return options.map((o) => o.name).join(', ');
  });

  const redirecting = await Promise.all(
    [...REDIRECT_STATUSES].map(async (status) => ({
      label: String(status),
      credential: await saveCredential(`Pagerly (${status} elsewhere)`, hostile.crossOrigin(status)),
    })),
  );

  // The spec gives the key check no shape: any 2xx is a valid key, the shared rule on every surface.
  await check('credential test passes on a 200 text/plain answer', async () => {
    const saved = await saveCredential('Pagerly (plain text)', hostile.plainText);
    const result = await rest.request<{ status: string; message: string }>('POST', '/credentials/test', {
      credentials: { ...saved, type: CREDENTIAL.name, data: credentialData(apiKey, hostile.plainText) },
    });
    expect(result.status === 'OK', `n8n says ${result.status}: ${result.message}`);
    return `${result.status}: ${result.message}`;
  });

  await check(`credential test refuses a redirect elsewhere (${[...REDIRECT_STATUSES].join(', ')})`, async () => {
    const said: string[] = [];
    for (const { label, credential: saved } of redirecting) {
      const status = Number(label);
      const data = credentialData(apiKey, hostile.crossOrigin(status));
      const result = await rest.request<{ status: string; message: string }>('POST', '/credentials/test', {
        credentials: { ...saved, type: CREDENTIAL.name, data },
      });
      expect(result.status === 'Error', `${status}: n8n says ${result.status}: ${result.message}`);
      expect(result.message.includes(`HTTP ${status}`) && /redirect/.test(result.message), `${status}: ${result.message}`);
      said.push(`${status} ${result.status}`);
    }
    nothingElsewhere();
    return `${said.join(', ')}; nothing reached ${elsewhereHost}`;
  });

  await check('team resource locator refuses a 307 elsewhere, naming its host', async () => {
    const error = await failureOf(teamOptions(redirecting.find((r) => r.label === '307')!.credential));
    expect(error.message.includes(elsewhereHost), `the error does not name ${elsewhereHost}: ${error.message.slice(0, 300)}`);
    expect(!error.message.includes(apiKey), 'the error repeats the key');
    nothingElsewhere();
    return `refused, names ${elsewhereHost}`;
  });

  await check('team resource locator follows a redirect to the same origin', async () => {
    const options = await teamOptions(await saveCredential('Pagerly (moved)', hostile.sameOrigin));
    expect(options.length > 0 && JSON.stringify(options.map((o) => o.value)) === JSON.stringify(teams), `dropdown ${JSON.stringify(options)}`);
    return options.map((o) => o.name).join(', ');
  });

  await check('a polling trigger on a base that redirects elsewhere fails', async () => {
    const workflow = await rest.request<{ id: string; versionId: string }>('POST', '/workflows', triggerWorkflow(redirecting[0]!.credential, ''));
    // n8n 2.35 runs a polling trigger's first poll at activation and refuses the activation when
    // it fails. Later lines activate it and back off from a failing poll without an execution
    // to show: there the error shows where a user meets it, "Fetch Test Event" in the editor.
    const activation = await rest.request('POST', `/workflows/${workflow.id}/activate`, { versionId: workflow.versionId }).then(
      () => undefined,
      (error: Error) => error,
    );
    let said: string;
    let how: string;
    if (activation) {
      said = activation.message;
      how = 'activation refused';
    } else {
      await rest.request('POST', `/workflows/${workflow.id}/deactivate`, {});
      const run = await rest.request<{ executionId?: string }>('POST', `/workflows/${workflow.id}/run`, {
        triggerToStartFrom: { name: TRIGGER_NODE.displayName },
        destinationNode: { nodeName: TRIGGER_NODE.displayName, mode: 'inclusive' },
      });
      expect(typeof run.executionId === 'string', `n8n answered ${JSON.stringify(run)}`);
      const failed = await waitFor('the manual run to fail', async () =>
        (await executionsOf(rest, workflow.id)).find((e) => e.id === run.executionId && e.status === 'error'),
      );
      said = await errorOf(rest, failed.id, line);
      how = `activated (n8n ${line.n8n} backs off from a failing poll); "Fetch Test Event" failed (execution ${failed.id})`;
    }
    expect(said.includes(elsewhereHost), `the error does not name ${elsewhereHost}: ${said.slice(0, 300)}`);
    expect(!said.includes(apiKey), 'the error repeats the key');
    nothingElsewhere();
    return `${how}, names ${elsewhereHost}`;
  });

  // Payments' primary rotation hands over every 12 h between two people: two steps of the
  // sandbox's clock take one of them off call and back on.
  const TEAM = 'Payments';
  const reader = createNodeClient({ apiKey, baseUrl: sandboxUrl });
  const onCallIds = async () => (await reader.listOnCallUsers({ teamname: TEAM })).map((user) => user.id);
  const changeLine = (json: Record<string, unknown>) => `${String(json.type)} ${(json.team as { name?: string })?.name} ${(json.user as { id?: string })?.id}`;
  let triggerId = '';
  let readsAtActivation = 0;
  let firstOnCall: string[] = [];
  const fired: { execution: string; items: Record<string, unknown>[] }[] = [];
  /** The next successful execution of the trigger workflow beyond those seen, with its items. */
  const nextExecution = async (seen: number) => {
    const [execution] = await waitFor(
      `execution ${seen + 1} of the polling trigger`,
      async () => {
        const done = (await executionsOf(rest, triggerId)).filter((e) => e.status === 'success' && e.mode !== 'manual');
        return done.length > seen ? done.slice(seen) : undefined;
      },
      75_000,
    );
    const items = await itemsOf(rest, (execution as ExecutionSummary).id, TRIGGER_NODE.displayName, line);
    fired.push({ execution: (execution as ExecutionSummary).id, items });
    return items;
  };

  await check('activating the polling trigger: its first poll emits nothing', async () => {
    expect(credential !== undefined, 'no saved credential');
    firstOnCall = await onCallIds();
    // Two polls a minute, 12 s and 30 s from now, each its own once-a-minute cron expression.
    const times = secondsFromNow([12, 30]);
    const workflow = await rest.request<{ id: string; versionId: string }>('POST', '/workflows', triggerWorkflow(credential!, TEAM, pollTimes(times)));
    triggerId = workflow.id;
    await rest.request('POST', `/workflows/${triggerId}/activate`, { versionId: workflow.versionId });
    readsAtActivation = onCallReads(senders.seen);
    const executions = await executionsOf(rest, triggerId);
    expect(executions.length === 0, `${executions.length} executions after activation`);
    return `active, polls at ${times.join(' and ')} on ${TEAM} (${firstOnCall.join(', ')} on call); no execution`;
  });

  await check('12 h on: one execution, the handover as two items', async () => {
    expect(triggerId !== '', 'no active trigger workflow');
    await scheduledPollRead(senders.seen, readsAtActivation);
    await sandbox.clock.advance(12 * HOUR);
    const now = await onCallIds();
    const items = await nextExecution(0);
    const wentOff = firstOnCall.filter((id) => !now.includes(id));
    const cameOn = now.filter((id) => !firstOnCall.includes(id));
    const expected = [...wentOff.map((id) => `on_call_ended ${TEAM} ${id}`), ...cameOn.map((id) => `on_call_started ${TEAM} ${id}`)];
    expect(wentOff.length > 0, `nobody went off call in ${TEAM}`);
    expect(JSON.stringify(items.map(changeLine)) === JSON.stringify(expected), `items ${JSON.stringify(items.map(changeLine))} ≠ ${JSON.stringify(expected)}`);
    return `execution ${fired[0]!.execution}: ${items.map(changeLine).join('; ')}`;
  });

  await check('12 h later: the same person back on call, their second firing', async () => {
    expect(fired.length === 1, 'no first execution');
    await sandbox.clock.advance(12 * HOUR);
    const items = await nextExecution(1);
    const person = (fired[0]!.items.find((json) => json.type === 'on_call_ended')?.user as { id?: string } | undefined)?.id ?? '';
    const firings = fired.flatMap(({ items: all }) => all.filter((json) => (json.user as { id?: string }).id === person).map((json) => String(json.type)));
    expect(JSON.stringify(firings) === JSON.stringify(['on_call_ended', 'on_call_started']), `${person} fired ${JSON.stringify(firings)}`);
    expect(JSON.stringify(await onCallIds()) === JSON.stringify(firstOnCall), 'the rotation did not come back to the first person');
    return `execution ${fired[1]!.execution}: ${items.map(changeLine).join('; ')}; ${person} fired twice (ended, started)`;
  });

  await check('"Fetch Test Event" (manual run) shows who is on call now', async () => {
    expect(triggerId !== '', 'no trigger workflow');
    const node = { nodeName: TRIGGER_NODE.displayName, mode: 'inclusive' };
    const run = await rest.request<{ executionId?: string }>('POST', `/workflows/${triggerId}/run`, {
      triggerToStartFrom: { name: TRIGGER_NODE.displayName },
      destinationNode: node,
    });
    expect(typeof run.executionId === 'string', `n8n answered ${JSON.stringify(run)}`);
    await waitFor('the manual execution', async () => {
      const done = (await executionsOf(rest, triggerId)).find((e) => e.id === run.executionId && e.status === 'success');
      return done;
    });
    const items = await itemsOf(rest, run.executionId!, TRIGGER_NODE.displayName, line);
    const shown = items.map(changeLine);
    const expected = (await onCallIds()).map((id) => `on_call_started ${TEAM} ${id}`);
    expect(JSON.stringify(shown) === JSON.stringify(expected), `sample ${JSON.stringify(shown)} ≠ ${JSON.stringify(expected)}`);
    return `execution ${run.executionId}: ${shown.join('; ')}`;
  });

  await check('deactivating the polling trigger', async () => {
    expect(triggerId !== '', 'no trigger workflow');
    await rest.request('POST', `/workflows/${triggerId}/deactivate`, {});
    const workflow = await rest.request<{ active?: boolean }>('GET', `/workflows/${triggerId}`);
    expect(workflow.active === false, `n8n still has it active: ${JSON.stringify(workflow.active)}`);
    return `inactive; ${(await executionsOf(rest, triggerId)).length} executions in all`;
  });

  await runTemplateCases({ check, rest, n8nUrl: n8n.url, sandbox, sandboxUrl, apiKey, credentialData: credentialData(apiKey), seen: senders.seen, line });

  let actionsId = '';
  if (credential) actionsId = (await rest.request<{ id: string }>('POST', '/workflows', actionsWorkflow(credential, teams[0] ?? ''))).id;
  const redirectsId = (await rest.request<{ id: string }>('POST', '/workflows', everyOperationPerCredential(redirecting))).id;
  await check('n8n stops (the CLI runs next on its database)', async () => {
    await n8n.stop();
    return 'stopped';
  });

  await importTemplatesWithCli(check, n8n, line);

  await check(`every operation: n8n execute --id (${nodeOperations.length} nodes)`, async () => {
    expect(actionsId !== '', 'no workflow was saved');
    const data = await n8n.execute(actionsId);
    const lines: string[] = [];
    for (const operation of nodeOperations) {
      const runs = data[nodeName(operation)];
      expect(runs !== undefined, `${n8nNodeName(operation).operation}: the node did not run`);
      const error = runs![0]!.error;
      expect(!error, `${n8nNodeName(operation).operation}: ${error?.message}`);
      const items = (runs![0]!.data?.main?.[0] ?? []).map((item) => item.json).filter((json) => Object.keys(json).length > 0);
      const missing = operation.kind === 'action' ? outputKeys(operation).filter((key) => !(key in (items[0] ?? {}))) : [];
      expect(operation.kind === 'search' || items.length === 1, `${n8nNodeName(operation).operation}: ${items.length} items`);
      expect(missing.length === 0, `${n8nNodeName(operation).operation}: output lacks ${missing.join(', ')}`);
      lines.push(`${n8nNodeName(operation).resource}:${n8nNodeName(operation).operation} → ${items.length} item(s)${items[0]?.id ? ` (${items[0].id})` : ''}`);
    }
    return `${lines.length} operations ran\n${lines.map((l) => `    ${l}`).join('\n')}`;
  });

  await check(`every operation on bases redirecting elsewhere (${redirecting.length} statuses)`, async () => {
    const data = await n8n.execute(redirectsId);
    let refused = 0;
    for (const { label } of redirecting)
      for (const operation of nodeOperations) {
        const name = `${label}: ${nodeName(operation)}`;
        const json = data[name]?.[0]?.data?.main?.[0]?.[0]?.json;
        const error = typeof json?.error === 'string' ? json.error : data[name]?.[0]?.error?.message;
        expect(typeof error === 'string' && error.includes(elsewhereHost), `${name}: ${error ?? 'no error'}`);
        expect(!error!.includes(apiKey), `${name}: the error repeats the key`);
        refused++;
      }
    nothingElsewhere();
    return `${refused} items failed naming ${elsewhereHost}; nothing reached it`;
  });
} finally {
  await n8n.stop();
  await sandbox.close();
  await hostile.close();
  if (results.some((r) => !r.ok)) console.log(`\nn8n's log (last lines):\n${n8n.serverLog().split('\n').slice(-30).join('\n')}`);
  n8n.remove();
}

finish();
