import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { writeGeneratedFiles } from '../../surfaces/write-files.ts';
import { filesOfFolder } from '../../make-app/schema-check/built-folder.ts';
import { conventionFindings, PAGES } from '../../make-app/schema-check/conventions.ts';

/**
 * Make's review conventions, checked by `npm run make:check-schemas` (so by `.ci/run`). Pages:
 * https://developers.make.com/custom-apps-documentation/best-practices/names-labels-and-descriptions,
 * .../best-practices/action-and-search-modules (limit), .../best-practices/base/error-handling
 * ("[404] The specified contact was not found."), .../best-practices/input-parameters/processing-of-input-parameters
 * (ifempty(x, undefined) is the bad practice), .../best-practices/processing-of-output-parameters.
 * The review rules added for App review prerequisites and Best practices name their page in each
 * case below (`PAGES` of conventions.ts):
 * https://developers.make.com/custom-apps-documentation/app-review/prerequisites (a limit for search modules, triggers and RPCs),
 * https://developers.make.com/custom-apps-documentation/best-practices/modules/search-modules (limit optional, 10, last),
 * https://developers.make.com/custom-apps-documentation/best-practices/remote-procedure-calls (mode "edit" in Get, Update, Delete only),
 * https://developers.make.com/custom-apps-documentation/best-practices/naming-conventions/output-labels (sentence case, same order and label as the inputs),
 * https://developers.make.com/custom-apps-documentation/best-practices/naming-conventions/input-parameters ("Product API key"; hints),
 * https://developers.make.com/custom-apps-documentation/best-practices/naming-conventions/modules/module-descriptions ("Returns a list of", "Returns information about a specific"),
 * https://developers.make.com/custom-apps-documentation/best-practices/naming-conventions/groups (RCUD order),
 * https://developers.make.com/custom-apps-documentation/best-practices/base and .../base/authorization-and-sanitization (the key and its sanitizing once, in the Base).
 */
type Json = Record<string, any>;
const COMBINED = 'combines create and update';

/** The generated app with one change made to a copy of one file. */
function changed(path: (manifest: Json) => string, change: (content: Json) => void) {
  const files = new Map([...generateMakeApp()].map(([p, c]) => [p, structuredClone(c)]));
  const target = path(files.get('makecomapp.json') as Json);
  change(files.get(target) as Json);
  return conventionFindings(files);
}
const manifestFile = () => 'makecomapp.json';
const moduleFile = (id: string, code: string) => (manifest: Json) => manifest.components.module[id].codeFiles[code] as string;
const rulesOf = (findings: { rule: string; problem: string }[]) => findings.filter((f) => !f.problem.includes(COMBINED)).map((f) => f.rule);

describe("Make's review conventions", () => {
  it('the generated app keeps every one (each module does one thing: create and update are separate modules)', () => {
    expect(conventionFindings(generateMakeApp()).filter((f) => !f.problem.includes(COMBINED))).toEqual([]);
  });

  it.each([
    [
      'a label in title case',
      manifestFile,
      (m: Json) => {
        m.components.module.listOnCallUsers.label = 'Search On-Call Users';
      },
      'label',
    ],
    [
      'a label without a verb first',
      manifestFile,
      (m: Json) => {
        m.components.module.getDirectoryEntry.label = 'Directory entry';
      },
      'label',
    ],
    [
      'a universal module named otherwise',
      manifestFile,
      (m: Json) => {
        m.components.module.makeApiCall.description = 'Calls the API.';
      },
      'universal module',
    ],
    [
      'a search without limit',
      moduleFile('listOnCallUsers', 'communication'),
      (c: Json) => {
        delete c.response.limit;
      },
      'search limit',
    ],
    [
      'an error message without the status first',
      () => 'general/base.iml.json',
      (c: Json) => {
        c.response.error['404'].message = 'Not found: {{temp.said}}';
      },
      'status first',
    ],
    [
      'ifempty(x, undefined)',
      moduleFile('createIncident', 'communication'),
      (c: Json) => {
        c.body.description = '{{ifempty(parameters.description, undefined)}}';
      },
      'empty values',
    ],
    [
      'a backslash-escaped quote',
      moduleFile('createIncident', 'communication'),
      (c: Json) => {
        c.body.title = "{{'it\\'s ' + parameters.title}}";
      },
      'no escaped quotes',
    ],
    [
      'an output through toString',
      moduleFile('getDirectoryEntry', 'communication'),
      (c: Json) => {
        c.response.output = { entry: '{{toString(body)}}' };
      },
      'explicit output',
    ],
    [
      'mode edit on a plain text field',
      moduleFile('createIncident', 'mappableParams'),
      (c: Json) => {
        (c as unknown as Json[])[0]!.mode = 'edit';
      },
      'mode edit',
    ],
  ] as [string, (m: Json) => string, (c: Json) => void, string][])('fails on %s', (_, path, change, rule) => {
    expect(rulesOf(changed(path, change))).toEqual([rule]);
  });

  const params = (c: Json) => c as unknown as Json[];
  const param = (c: Json, name: string) => params(c).find((p) => p.name === name)!;
  it.each([
    [
      PAGES.prerequisites,
      'an RPC that iterates with no limit',
      () => 'rpcs/list-teams/list-teams.communication.iml.json',
      (c: Json) => delete c.response.limit,
      'rpc limit',
    ],
    [
      PAGES.searchModules,
      'a required limit',
      moduleFile('listOnCallUsers', 'mappableParams'),
      (c: Json) => (param(c, 'limit').required = true),
      'search limit',
    ],
    [
      PAGES.searchModules,
      'a limit of another default',
      moduleFile('listOnCallUsers', 'mappableParams'),
      (c: Json) => (param(c, 'limit').default = 50),
      'search limit',
    ],
    [
      PAGES.searchModules,
      'a limit that is not the last field',
      moduleFile('listOnCallUsers', 'mappableParams'),
      (c: Json) => params(c).reverse(),
      'search limit',
    ],
    [
      PAGES.rpcs,
      'mode "edit" on the team select of a create',
      moduleFile('createIncident', 'mappableParams'),
      (c: Json) => (param(c, 'teamname').mode = 'edit'),
      'rpc mode',
    ],
    [
      PAGES.rpcs,
      'no mode "edit" on the team select of an update',
      moduleFile('updateIncident', 'mappableParams'),
      (c: Json) => delete param(c, 'teamname').mode,
      'rpc mode',
    ],
    [
      PAGES.rpcs,
      'mode "edit" on the webhook\'s team select',
      () => 'webhooks/on-call-changes/on-call-changes.params.iml.json',
      (c: Json) => (param(c, 'teamname').mode = 'edit'),
      'rpc mode',
    ],
    [
      PAGES.inputParameters,
      'the connection\'s "API Key"',
      () => 'connections/pagerly/pagerly.params.iml.json',
      (c: Json) => (param(c, 'apiKey').label = 'API Key'),
      'sentence case',
    ],
    [
      PAGES.inputParameters,
      'a title-case input label',
      moduleFile('makeApiCall', 'mappableParams'),
      (c: Json) => (param(c, 'qs').label = 'Query String'),
      'sentence case',
    ],
    [
      PAGES.outputLabels,
      'a title-case output label',
      moduleFile('createIncident', 'interface'),
      (c: Json) => (param(c, 'created_at').label = 'Created At'),
      'sentence case',
    ],
    [
      PAGES.outputLabels,
      'a title-case nested output label',
      moduleFile('watchOnCallChanges', 'interface'),
      (c: Json) => (param(c, 'current').spec[1].label = 'Full Name'),
      'sentence case',
    ],
    [
      PAGES.outputLabels,
      "outputs out of the inputs' order",
      moduleFile('createIncident', 'interface'),
      (c: Json) => params(c).splice(3, 0, ...params(c).splice(5, 1)),
      'output order',
    ],
    [
      PAGES.outputLabels,
      'an output labelled otherwise than its input',
      moduleFile('createIncident', 'interface'),
      (c: Json) => (param(c, 'teamname').label = 'Team name'),
      'output order',
    ],
    [
      PAGES.moduleDescriptions,
      'a search described as "Finds"',
      manifestFile,
      (m: Json) => (m.components.module.listOnCallUsers.description = 'Finds the people on call.'),
      'description pattern',
    ],
    [
      PAGES.moduleDescriptions,
      'a get described as "Finds"',
      manifestFile,
      (m: Json) => (m.components.module.getDirectoryEntry.description = 'Finds a person by e-mail.'),
      'description pattern',
    ],
    [
      PAGES.moduleDescriptions,
      'an update described with another verb',
      manifestFile,
      (m: Json) => (m.components.module.updateIncident.description = 'Changes an incident.'),
      'description pattern',
    ],
    [
      PAGES.moduleDescriptions,
      'Zapier\'s "step" in a description',
      manifestFile,
      (m: Json) => (m.components.module.removeDirectoryEntry.description += ' The step succeeds.'),
      'platform words',
    ],
    [
      PAGES.moduleDescriptions,
      'Zapier\'s "step" in a hint',
      moduleFile('updateIncident', 'mappableParams'),
      (c: Json) => (param(c, 'id').help = 'Map it from the Create Incident step.'),
      'platform words',
    ],
    [
      PAGES.groups,
      'a get after the updates',
      () => 'modules/groups.json',
      (c: Json) => params(c)[2]!.modules.push(params(c)[2]!.modules.shift()),
      'group order',
    ],
    [
      PAGES.inputParameters,
      'a connection hint with no link',
      () => 'connections/pagerly/pagerly.params.iml.json',
      (c: Json) => (param(c, 'apiKey').help = 'Copy it from the dashboard.'),
      'connection hint',
    ],
    [
      PAGES.base,
      'a module that sets the key header itself',
      moduleFile('createIncident', 'communication'),
      (c: Json) => Object.assign(c, { headers: { 'X-APIKEY': '{{connection.apiKey}}' }, log: { sanitize: ['request.headers.`x-apikey`'] } }),
      'repeats base',
    ],
    [
      PAGES.base,
      'a module that repeats the error handling',
      moduleFile('getDirectoryEntry', 'communication'),
      (c: Json) => (c.response.error = { message: '[{{statusCode}}] x' }),
      'repeats base',
    ],
    [
      PAGES.base,
      "a module request that copies the Base's temp",
      moduleFile('updateDirectoryEntry', 'communication'),
      (c: Json) => Object.assign((c as unknown as Json[])[0]!.response.temp, { said: '{{body}}' }),
      'repeats base',
    ],
    [
      PAGES.sanitization,
      'a standalone request that logs the key',
      () => 'webhooks/on-call-changes/on-call-changes.attach.iml.json',
      (c: Json) => delete c.log,
      'sanitize',
    ],
    [
      PAGES.sanitization,
      'a 12-way key check in the Base',
      () => 'general/base.iml.json',
      (c: Json) =>
        (c.headers['X-APIKEY'] =
          `{{if(${Array(12).fill("contains(encodeURL(trim(connection.apiKey)), '%0')").join(' || ')}, undefined, trim(connection.apiKey))}}`),
      'key header',
    ],
  ] as [string, string, (m: Json) => string, (c: Json) => void, string][])('fails on %s (%s)', (page, _, path, change, rule) => {
    expect(page).toMatch(/^https:\/\/developers\.make\.com\/custom-apps-documentation\//);
    expect([...new Set(rulesOf(changed(path, change)))]).toEqual([rule]);
  });

  it('runs on the built files: none on the folder the build writes, one when a file there is tampered with', () => {
    const folder = mkdtempSync(join(tmpdir(), 'make-review-'));
    try {
      writeGeneratedFiles(generateMakeApp(), folder);
      expect(conventionFindings(filesOfFolder(folder))).toEqual([]);
      const groups = join(folder, 'modules/groups.json');
      const tampered = JSON.parse(readFileSync(groups, 'utf8')) as Json[];
      tampered[2]!.modules.reverse();
      writeFileSync(groups, JSON.stringify(tampered));
      expect(conventionFindings(filesOfFolder(folder)).map((f) => f.rule)).toEqual(['group order']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('names a module that combines create and update', () => {
    const findings = changed(manifestFile, (m) => {
      m.components.module.changeDirectoryRole.label = 'Create or update a role';
    });
    expect(findings.filter((f) => f.where === 'module changeDirectoryRole' && f.rule === 'label').map((f) => f.problem)).toEqual([
      `"Create or update a role" ${COMBINED}: split it into two modules`,
    ]);
  });
});
