import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import { openApi } from '../../openapi/generate.ts';
import { bins, runTool, type ToolRun } from './run-tool.ts';

/**
 * The document passes Redocly's recommended rules (https://redocly.com/docs/cli/rules/recommended)
 * and Spectral's OpenAPI rules (https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules)
 * with no error and no warning, and both tools fail a copy broken on purpose, so a clean run
 * means something. Both run offline (test/support/no-network.cjs).
 */
type Loose = Record<string, any>;
let folder: string;
let redocly: { good: ToolRun; bad: ToolRun };
let spectral: ToolRun;
let configOnly: ToolRun;
let unconfigured: ToolRun;

/** The real document, and a copy with one operation's id and summary gone and an example of another that does not fit. */
function write(): { good: string; bad: string } {
  const document = openApi({ operations, endpoints }) as Loose;
  const bad = structuredClone(document);
  const op = bad['paths']['/o/incident'].post;
  delete op.operationId;
  delete op.summary;
  // A documented list, whose shape is a promise (a write's 2xx promises none: assumption `created-id`).
  bad['paths']['/o/zapier/allteams'].get.responses['200'].content['application/json'].examples['list-teams'].value[0].name = 42;
  const good = join(folder, 'openapi.json');
  const broken = join(folder, 'broken.json');
  writeFileSync(good, JSON.stringify(document, null, 2));
  writeFileSync(broken, JSON.stringify(bad, null, 2));
  return { good, bad: broken };
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-openapi-lint-'));
  const files = write();
  const lint = (file: string) => runTool(bins.redocly, ['lint', '--config', 'openapi/redocly.yaml', '--format=json', file]);
  const [good, bad, both, config, none] = await Promise.all([
    lint(files.good),
    lint(files.bad),
    runTool(bins.spectral, ['lint', '--ruleset', 'openapi/.spectral.yaml', '--format', 'json', '--fail-severity', 'hint', files.good, files.bad]),
    runTool(bins.redocly, ['lint', '--config', 'openapi/redocly.yaml', files.good], { quiet: false }),
    runTool(bins.redocly, ['lint', files.good], { quiet: false }),
  ]);
  redocly = { good, bad };
  spectral = both;
  configOnly = config;
  unconfigured = none;
}, 180_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const problems = (run: ToolRun) => (JSON.parse(run.stdout) as { problems: { ruleId: string; severity: string; message: string }[] }).problems;

describe('Redocly lint (recommended rules)', () => {
  it('passes the document with zero errors and zero warnings', () => {
    expect(problems(redocly.good)).toEqual([]);
    expect(JSON.parse(redocly.good.stdout).totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(redocly.good.code).toBe(0);
  });

  it('fails the broken copy: no summary, no operationId, an example that does not fit', () => {
    expect(redocly.bad.code).toBe(1);
    expect(
      problems(redocly.bad)
        .map((problem) => problem.ruleId)
        .toSorted(),
    ).toEqual(['no-invalid-media-type-examples', 'operation-operationId', 'operation-summary']);
  });

  it('reached no host but loopback', () => {
    expect(redocly.good.stderr + redocly.bad.stderr).not.toContain('NETWORK ATTEMPT');
  });

  // Redocly sends usage data unless told not to (https://redocly.com/docs/cli/usage-data/).
  it('stays offline on its config alone, where without it it reaches for its telemetry host', () => {
    expect(configOnly.stderr).not.toContain('NETWORK ATTEMPT');
    expect(configOnly.code).toBe(0);
    expect(unconfigured.stderr).toContain('NETWORK ATTEMPT');
  });
});

describe('Spectral lint (spectral:oas)', () => {
  const results = () => JSON.parse(spectral.stdout) as { code: string; severity: number; source: string }[];

  it('passes the document with zero errors and zero warnings (nothing at any severity)', () => {
    expect(results().filter((result) => result.source.endsWith('openapi.json'))).toEqual([]);
  });

  it('fails the broken copy: no operationId, an example that does not fit', () => {
    expect(spectral.code).toBe(1);
    const broken = results().filter((result) => result.source.endsWith('broken.json'));
    expect(broken.map((result) => result.code).toSorted()).toEqual(['oas3-valid-media-example', 'operation-operationId']);
  });

  it('reached no host but loopback', () => {
    expect(spectral.stderr).not.toContain('NETWORK ATTEMPT');
  });
});

describe('the offline guard', () => {
  it('reports, and refuses, a tool that reaches for another host even when the tool swallows the error', async () => {
    const script = join(folder, 'reach.cjs');
    writeFileSync(script, "require('node:https').get('https://telemetry.example.org/').on('error', () => console.log('swallowed'));\n");
    const run = await runTool(script, []);
    expect(run.stderr).toContain('NETWORK ATTEMPT telemetry.example.org');
    expect(run.stdout).toContain('swallowed');
  });
});
