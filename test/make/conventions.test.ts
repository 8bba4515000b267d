import { describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { conventionFindings } from '../../make-app/schema-check/conventions.ts';

/**
 * Make's review conventions, checked by `npm run make:check-schemas` (so by `.ci/run`). Pages:
 * https://developers.make.com/custom-apps-documentation/best-practices/names-labels-and-descriptions,
 * .../best-practices/action-and-search-modules (limit), .../best-practices/base/error-handling
 * ("[404] The specified contact was not found."), .../best-practices/input-parameters/processing-of-input-parameters
 * (ifempty(x, undefined) is the bad practice), .../best-practices/processing-of-output-parameters.
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

  it('names a module that combines create and update', () => {
    const findings = changed(manifestFile, (m) => {
      m.components.module.changeDirectoryRole.label = 'Create or update a role';
    });
    expect(findings.filter((f) => f.where === 'module changeDirectoryRole').map((f) => f.problem)).toEqual([
      `"Create or update a role" ${COMBINED}: split it into two modules`,
    ]);
  });
});
