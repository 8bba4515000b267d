import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { buildAction } from '../../github-action/build-action.ts';
import { ENTRY_FILE } from '../../github-action/generator/generate.ts';
import { ACTION_OPERATIONS } from '../../github-action/names.ts';
import { type ActionCore, runAction } from '../../github-action/runtime/main.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { loopbackServer } from '../support/loopback-server.ts';
import { BAD_KEY, maskedForms, printedForms } from './support.ts';

const run = promisify(execFile);
const node = join(process.cwd(), 'node_modules/.bin/node');
const validator = join(process.cwd(), 'node_modules/.bin/action-validator');

let sandbox: Sandbox;
let url: string;
let folder: string;
const temp = mkdtempSync(join(tmpdir(), 'pagerly-action-'));
beforeAll(async () => {
  sandbox = await createSandbox();
  url = await sandbox.listen();
  folder = (await buildAction(join(temp, 'action'))).folder;
});
afterAll(async () => {
  await sandbox.close();
  rmSync(temp, { recursive: true, force: true });
});

/**
 * The built bundle as a runner starts it: `node index.js`, the inputs in `INPUT_<NAME>`
 * (hyphens kept, as the runner does), outputs written to the file in GITHUB_OUTPUT. Returns
 * what it printed (the step's log), its exit code and the outputs it set.
 */
async function runBundle(inputs: Record<string, string>, extraEnv: Record<string, string> = {}) {
  const outputFile = join(temp, `output-${Math.random().toString(36).slice(2)}`);
  writeFileSync(outputFile, '');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', GITHUB_OUTPUT: outputFile, ...extraEnv };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const result = await run(node, [join(folder, ENTRY_FILE)], { env, encoding: 'utf8' }).then(
    ({ stdout, stderr }) => ({ code: 0, log: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, log: error.stdout + error.stderr }),
  );
  const outputs: Record<string, string> = {};
  // @actions/core writes each output as `name<<DELIMITER`, the value, then the delimiter.
  for (const match of readFileSync(outputFile, 'utf8').matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) outputs[match[1]!] = match[3]!;
  const lines = result.log.split('\n');
  // A workflow command escapes its data (%, CR, LF); the runner reads it unescaped.
  const commandData = (data: string) => data.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
  const masks = lines.filter((line) => line.startsWith('::add-mask::')).map((line) => commandData(line.slice('::add-mask::'.length)));
  return { ...result, outputs, lines, masks };
}

/** The log as the runner shows it: the `::add-mask::` commands are read by the runner, never shown. */
const shown = (lines: readonly string[]) => lines.filter((line) => !line.startsWith('::add-mask::')).join('\n');

describe('the built Action (dist/action), run as a runner runs it', () => {
  it('traces each request in the log with PAGERLY_DEBUG=1, the key in no form; nothing without it', async () => {
    const key = demoKeys.acmeAdmin;
    const inputs = { 'api-key': key, title: 'Traced deploy', severity: 'P3', team: 'Platform', 'base-url': url };
    const traced = await runBundle(inputs, { PAGERLY_DEBUG: '1' });
    expect(traced.code).toBe(0);
    const log = shown(traced.lines);
    expect(log).toMatch(/^\* POST \S+ 2\d\d \d+ ms \d+ bytes$/m);
    expect(log).toMatch(/^> x-apikey: \[redacted\]$/m);
    for (const form of printedForms(key)) expect(log).not.toContain(form);
    // Re-run with debug logging: the runner's own switch gives the same entries as ::debug:: lines.
    const runnerDebug = await runBundle(inputs, { RUNNER_DEBUG: '1' });
    expect(shown(runnerDebug.lines)).toMatch(/^::debug::\* POST \S+ 2\d\d \d+ ms \d+ bytes/m);
    const plain = await runBundle(inputs);
    expect(shown(plain.lines)).not.toMatch(/^(::debug::)?\* POST/m);
  });

  it('creates an incident and sets incident-id, the key masked first and shown nowhere', async () => {
    const key = demoKeys.acmeAdmin;
    const result = await runBundle({ 'api-key': key, title: 'Deploy 4512 failed', severity: 'P2', team: 'Platform', 'base-url': url });
    expect(result.code).toBe(0);
    expect(result.outputs['incident-id']).toMatch(/^inc_\d+$/);
    const incident = JSON.parse(result.outputs['incident']!);
    expect(incident).toMatchObject({
      id: result.outputs['incident-id'],
      title: 'Deploy 4512 failed',
      severity: 'P2',
      teamname: 'Platform',
      status: 'triggered',
    });
    expect(sandbox.world.incidents.get(incident.id)).toMatchObject({ title: 'Deploy 4512 failed' });
    // Masked before anything else is printed, in every form a text could carry it.
    expect(result.lines.slice(0, result.masks.length).every((line) => line.startsWith('::add-mask::'))).toBe(true);
    expect(result.masks).toEqual(expect.arrayContaining(maskedForms(key)));
    for (const form of printedForms(key)) expect(shown(result.lines)).not.toContain(form);
  });

  it('updates the incident given its id (resolves it)', async () => {
    const key = demoKeys.acmeAdmin;
    const created = await runBundle({ 'api-key': key, title: 'Deploy 4513 failed', 'base-url': url });
    const id = created.outputs['incident-id']!;
    const updated = await runBundle({ 'api-key': key, id, title: 'Deploy 4513 failed', status: 'resolved', 'base-url': url });
    expect(updated.code).toBe(0);
    expect(updated.outputs['incident-id']).toBe(id);
    expect(JSON.parse(updated.outputs['incident']!)).toMatchObject({ id, status: 'resolved' });
    expect(sandbox.world.incidents.get(id)).toMatchObject({ status: 'resolved' });
  });

  it("fails the step with the service's text on a bad key, and shows the key in no form", async () => {
    const result = await runBundle({ 'api-key': BAD_KEY, title: 'Deploy 4514 failed', 'base-url': url });
    expect(result.code).toBe(1);
    const failure = result.lines.find((line) => line.startsWith('::error::'));
    expect(failure).toContain('API Key is not valid');
    expect(result.outputs).toEqual({});
    expect(result.masks).toEqual(expect.arrayContaining(maskedForms(BAD_KEY)));
    for (const form of printedForms(BAD_KEY)) expect(shown(result.lines)).not.toContain(form);
  });
});

describe('runAction, on a recording core', () => {
  function recordingCore(inputs: Record<string, string>) {
    const events: string[] = [];
    const core: ActionCore = {
      getInput: ((name: string) => {
        events.push(`input ${name}`);
        return inputs[name] ?? '';
      }) as ActionCore['getInput'],
      setSecret: (secret) => void events.push(`secret ${secret}`),
      setOutput: (name, value) => void events.push(`output ${name}=${value}`),
      setFailed: (message) => void events.push(`failed ${message}`),
      info: (message) => void events.push(`info ${message}`),
      warning: (message) => void events.push(`warning ${message}`),
    };
    return { core, events };
  }

  it('reads the key, masks every form of it, and only then reads anything else', async () => {
    const key = `  ${BAD_KEY}  `;
    const { core, events } = recordingCore({ 'api-key': key, title: 'x', 'base-url': url });
    await runAction(core);
    expect(events[0]).toBe('input api-key');
    const firstOther = events.findIndex((event, index) => index > 0 && !event.startsWith('secret '));
    const secrets = events.slice(1, firstOther).map((event) => event.slice('secret '.length));
    expect(secrets).toEqual(expect.arrayContaining([...maskedForms(key), ...maskedForms(key.trim())]));
    expect(events.at(-1)).toMatch(/^failed .*API Key is not valid/);
    for (const event of events.filter((e) => !e.startsWith('secret ') && !e.startsWith('input '))) {
      for (const form of printedForms(key.trim())) expect(event).not.toContain(form);
    }
  });

  it('fails the step at once on an empty api-key, naming the input and how to set it', async () => {
    // `api-key: ${{ secrets.PAGERLY_API_KEY }}` with the secret undefined, or on a fork's run, is ''.
    const { core, events } = recordingCore({ 'api-key': ' ', title: 'Deploy failed', 'base-url': url });
    await runAction(core);
    const failed = events.filter((event) => event.startsWith('failed '));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain('the `api-key` input is empty');
    expect(failed[0]).toContain('secrets.PAGERLY_API_KEY');
    expect(events.filter((event) => event.startsWith('output '))).toEqual([]);
  });

  it('passes the step on a 2xx without a readable id: an empty incident-id and the note as a warning', async () => {
    // The service's word is its status (assumption `created-id`): a failed step would be re-run and
    // open the incident twice, and would skip the steps after it.
    const service = await loopbackServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(201, { 'content-type': 'text/plain' }).end('created'));
    });
    try {
      const { core, events } = recordingCore({ 'api-key': 'pk_live_action_test_key', title: 'Deploy failed', 'base-url': service.url });
      await runAction(core);
      expect(events.filter((event) => event.startsWith('failed '))).toEqual([]);
      expect(events).toContain('output incident-id=');
      expect(events.find((event) => event.startsWith('warning '))).toMatch(/gave no id that could be read/);
    } finally {
      await service.close();
    }
  });
});

describe('action.yml', () => {
  const metadata = () => parse(readFileSync(join(folder, 'action.yml'), 'utf8'));

  it('runs the bundle on Node 24 and names the inputs and the output the workflows use', () => {
    const { runs, inputs, outputs } = metadata();
    expect(runs).toEqual({ using: 'node24', main: ENTRY_FILE });
    expect(Object.keys(inputs)).toEqual(expect.arrayContaining(['api-key', 'title', 'severity', 'team', 'id']));
    expect(inputs['api-key'].required).toBe(true);
    expect(inputs['id'].required).toBe(false);
    expect(Object.keys(outputs)).toContain('incident-id');
    expect(ACTION_OPERATIONS).toEqual(['createIncident', 'updateIncident']);
  });

  it("holds to action-validator's schema of action metadata", async () => {
    // action-validator 0.6.0's schema lists node12 to node20 for `runs.using`; GitHub runs node24
    // (asserted above). Everything else is checked as written.
    const copy = join(temp, 'node20', 'action.yml');
    const text = readFileSync(join(folder, 'action.yml'), 'utf8');
    expect(text).toContain('using: node24\n');
    rmSync(join(temp, 'node20'), { recursive: true, force: true });
    mkdirSync(join(temp, 'node20'));
    writeFileSync(copy, text.replace('using: node24\n', 'using: node20\n'));
    await expect(run(validator, [copy])).resolves.toBeDefined();
    // And it refuses metadata that is wrong, so the pass above means something.
    writeFileSync(copy, text.replace('using: node24\n', 'using: node20\n').replace(/^description: .*\n/m, ''));
    await expect(run(validator, [copy])).rejects.toThrow();
  });
});
