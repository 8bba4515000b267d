import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import { openApi } from '../../openapi/generate.ts';
import { BASE_VARIABLES, KEY_VARIABLE, postmanCollection } from '../../openapi/postman.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { bins, runTool, type ToolRun } from './run-tool.ts';

/**
 * The contract and the sandbox agree: the Postman collection made from the OpenAPI document
 * (openapi-to-postmanv2), each request asserting its status and its body against the schema,
 * runs with newman against a fresh sandbox, every request and every assertion passing. A copy
 * of the document broken on purpose (a status the sandbox does not answer, a field it does not
 * send) must fail exactly there, so the assertions are shown to bite.
 * newman's JSON reporter: https://github.com/postmanlabs/newman#json-reporter
 */
type Loose = Record<string, any>;

interface NewmanReport {
  run: {
    stats: Record<'requests' | 'assertions' | 'testScripts', { total: number; failed: number }>;
    executions: { item: { name: string }; response?: { code: number }; assertions?: { assertion: string; error?: { message: string } }[] }[];
    failures: { source: { name: string }; error: { test?: string; message: string } }[];
  };
}

let folder: string;
const sandboxes: Sandbox[] = [];
let good: { run: ToolRun; report: NewmanReport };
let broken: { run: ToolRun; report: NewmanReport };

/** newman on this collection against a sandbox of its own, with the demo admin's key. */
async function newman(name: string, document: Loose): Promise<{ run: ToolRun; report: NewmanReport }> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const collection = join(folder, `${name}.postman_collection.json`);
  const report = join(folder, `${name}.report.json`);
  writeFileSync(collection, JSON.stringify(await postmanCollection(document)));
  const run = await runTool(bins.newman, [
    'run',
    collection,
    '--env-var',
    `${BASE_VARIABLES.api}=${url}`,
    '--env-var',
    `${BASE_VARIABLES.rotations}=${url}/pagerly`,
    '--env-var',
    `${KEY_VARIABLE}=${demoKeys.acmeAdmin}`,
    '--reporters',
    'json',
    '--reporter-json-export',
    report,
  ]);
  return { run, report: JSON.parse(readFileSync(report, 'utf8')) as NewmanReport };
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-openapi-newman-'));
  const document = openApi({ operations, endpoints }) as Loose;
  const tampered = structuredClone(document);
  const incident = tampered['paths']['/o/incident'].post.responses;
  incident['200'] = incident['2XX'];
  delete incident['2XX'];
  tampered['components'].schemas.ListTeamsResponse.items.required.push('never_sent');
  [good, broken] = await Promise.all([newman('contract', document), newman('tampered', tampered)]);
}, 180_000);

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  rmSync(folder, { recursive: true, force: true });
});

describe('newman runs the collection against the sandbox', () => {
  it('sends one request per endpoint, each with its status and schema assertions, all passing', () => {
    const { stats, executions, failures } = good.report.run;
    expect(failures.map((failure) => `${failure.source.name}: ${failure.error.message}`)).toEqual([]);
    expect(stats.requests).toMatchObject({ total: Object.keys(endpoints).length, failed: 0 });
    expect(stats.assertions).toMatchObject({ total: 2 * Object.keys(endpoints).length, failed: 0 });
    for (const execution of executions) {
      expect([execution.item.name, execution.assertions?.map((a) => a.assertion)]).toEqual([
        execution.item.name,
        [expect.stringMatching(/^status is (200|2XX)$/), 'body fits the response schema'],
      ]);
    }
    expect(good.run.code).toBe(0);
  });

  it("removes the hooks it made by the ids their answers gave (the document's links)", () => {
    const codes = Object.fromEntries(good.report.run.executions.map((execution) => [execution.item.name, execution.response?.code]));
    expect(codes['Remove a Zapier hook']).toBe(200);
    expect(codes['Remove a Make hook']).toBe(200);
  });

  it('fails a copy of the contract that the sandbox does not keep, exactly where it breaks', () => {
    const failed = broken.report.run.failures.map((failure) => `${failure.source.name}: ${failure.error.test}`);
    expect(failed.toSorted()).toEqual([
      'Create an incident, or update one by its id: status is 200',
      'List the teams of the organization: body fits the response schema',
    ]);
    expect(broken.run.code).toBe(1);
  });

  it('reached no host but the sandbox on loopback', () => {
    expect(good.run.stderr + broken.run.stderr).not.toContain('NETWORK ATTEMPT');
  });
});
