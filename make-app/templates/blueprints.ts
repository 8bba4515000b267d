// The scenario blueprints of the ready-made jobs, typed with @makehq/sdk's `Blueprint`: what
// "Import Blueprint" in Make's scenario editor reads. `npm run make:blueprints` writes them
// under templates/ for the name the app has in a Make account.
import type { Blueprint, BlueprintNode, JSONValue } from '@makehq/sdk';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { ROTATIONS_SEGMENT } from '../../shared/settings.ts';
import { makeNames } from '../operation-names.ts';

/**
 * How a blueprint names a module of a custom app: `app#<app id>:<module>`, where the app id is
 * the name the app has in the account it was deployed to (Make adds a random suffix to a private
 * app's name, as in `app#errorhandler-dpgcf8:errorhandler`, the error-handler module of a public
 * blueprint-editing tool). Built-in and Make's own apps keep a bare prefix
 * (`gateway:CustomWebHook`, `http:ActionSendData`, `util:TextAggregator`).
 */
export const customModule = (appName: string, module: string) => `app#${appName}:${module}`;

/** The app's name in Make when none is given: the one the committed blueprints use. */
export const DEFAULT_APP_NAME = 'pagerly';

export interface Target {
  /** The app's id in the Make account (MAKE_APP_NAME of `npm run make:deploy`). */
  readonly appName: string;
  /** The app's major version in that account (MAKE_APP_VERSION), stored on each module. */
  readonly appVersion: number;
}

/** The longest chat message job 3 posts: Slack shows about 4,000 characters of a message's text. */
export const DIGEST_MAX_CHARS = 3_500;

/** The body job 2's webhook expects from a deploy pipeline (also its sample bundle in the tests). */
export const deployWebhookSample = {
  status: 'failure',
  service: 'checkout-api',
  environment: 'production',
  run_url: 'https://ci.acme.example/runs/4711',
  incident_id: '',
} as const;

const designer = (x: number, y = 0, name?: string): Record<string, JSONValue> => ({ designer: { x, y, ...(name ? { name } : {}) } });

const pagerly = (target: Target, id: number, module: string, x: number, rest: Partial<BlueprintNode>): BlueprintNode => ({
  id,
  module: customModule(target.appName, module),
  version: target.appVersion,
  parameters: { __IMTCONN__: null },
  metadata: designer(x),
  ...rest,
});

/** Make's HTTP module posting Slack-format JSON (`{"text": …}`) to the incoming-webhook URL the user pastes. */
const postToChat = (id: number, x: number, text: string): BlueprintNode => ({
  id,
  module: 'http:ActionSendData',
  version: 3,
  parameters: { handleErrors: true, useNewZLibDeCompress: true },
  mapper: {
    url: '',
    method: 'post',
    headers: [],
    qs: [],
    bodyType: 'raw',
    parseResponse: false,
    contentType: 'application/json',
    // JSON text built in the mapper: a quote or a backslash in a name is escaped first.
    data: `{"text": "${text}"}`,
  },
  metadata: designer(x, 0, 'Post to chat (paste your incoming-webhook URL)'),
});

// Make's function arguments are literal text (no quotes): a backslash, then a quote, is escaped for JSON.
const json = (path: string) => `{{replace(replace(${path}; \\; \\\\); "; \\")}}`;

const scenario = (name: string, flow: BlueprintNode[], scheduling: Blueprint['scheduling'], instant: boolean): Blueprint => ({
  name,
  flow,
  metadata: { instant, version: 1, scenario: { roundtrips: 1, maxErrors: 3, autoCommit: true, sequential: true, confidential: false, dlq: false } },
  scheduling,
  interface: { input: [], output: [] },
});

/** Job 1: when the people on call for a team change, say who went on and off call in the team's chat. */
export function onCallChangeToChat(target: Target): Blueprint {
  return scenario(
    'Pagerly: tell the team when the on-call person changes',
    [
      pagerly(target, 1, makeNames.onCallChanged.name, 0, { parameters: { __IMTHOOK__: null } }),
      postToChat(2, 300, `On call for ${json('1.team.name')}: ${json('1.current_names')} (was ${json('1.previous_names')})`),
    ],
    { type: 'immediately' },
    true,
  );
}

/**
 * Job 2: the deploy pipeline calls the webhook with `status` and the id of the incident it keeps
 * open, if any. A failure opens an incident, or updates the open one; a success resolves it. The
 * webhook answers with the id to keep (empty once resolved): the pipeline carries it, as the
 * GitHub workflow does (docs/github-action.md).
 */
export function failedDeployIncident(target: Target): Blueprint {
  const title = 'Deploy of {{1.service}} to {{1.environment}} failed';
  return scenario(
    'Pagerly: a failed deploy opens an incident, the next good one resolves it',
    [
      { id: 1, module: 'gateway:CustomWebHook', version: 1, parameters: { hook: null, maxResults: 1 }, metadata: designer(0, 0, 'Deploy finished') },
      {
        id: 2,
        module: 'builtin:BasicRouter',
        version: 1,
        metadata: designer(300),
        routes: [
          {
            flow: [
              pagerly(target, 3, makeNames.createIncident.name, 600, {
                filter: {
                  name: 'Failed, none open',
                  conditions: [
                    [
                      { a: '{{1.status}}', o: 'text:equal', b: 'failure' },
                      { a: '{{1.incident_id}}', o: 'notexist' },
                    ],
                  ],
                },
                mapper: { title, severity: 'P2', description: 'See {{1.run_url}}' },
              }),
              {
                id: 4,
                module: 'gateway:WebhookRespond',
                version: 1,
                mapper: { status: '200', body: '{"incident_id": "{{3.id}}"}', headers: [] },
                metadata: designer(900),
              },
            ],
          },
          {
            flow: [
              pagerly(target, 5, makeNames.updateIncident.name, 600, {
                // Two failures in a row: the open incident is updated, not a second one opened.
                filter: {
                  name: 'Failed again',
                  conditions: [
                    [
                      { a: '{{1.status}}', o: 'text:equal', b: 'failure' },
                      { a: '{{1.incident_id}}', o: 'exist' },
                    ],
                  ],
                },
                mapper: { id: '{{1.incident_id}}', title, description: 'Failed again: see {{1.run_url}}' },
                metadata: designer(600, 300),
              }),
              {
                id: 6,
                module: 'gateway:WebhookRespond',
                version: 1,
                mapper: { status: '200', body: '{"incident_id": "{{5.id}}"}', headers: [] },
                metadata: designer(900, 300),
              },
            ],
          },
          {
            flow: [
              pagerly(target, 7, makeNames.updateIncident.name, 600, {
                filter: {
                  name: 'Good deploy, one open',
                  conditions: [
                    [
                      { a: '{{1.status}}', o: 'text:equal', b: 'success' },
                      { a: '{{1.incident_id}}', o: 'exist' },
                    ],
                  ],
                },
                mapper: { id: '{{1.incident_id}}', title, status: 'resolved', description: 'Resolved by {{1.run_url}}' },
                metadata: designer(600, 600),
              }),
              {
                id: 8,
                module: 'gateway:WebhookRespond',
                version: 1,
                mapper: { status: '200', body: '{"incident_id": ""}', headers: [] },
                metadata: designer(900, 600),
              },
            ],
          },
        ],
      },
    ],
    { type: 'immediately' },
    true,
  );
}

/** The team list's path for the app's API call, whose paths are relative to the API base. */
export const TEAMS_PATH = `${endpoints.listTeams.base === 'rotations' ? ROTATIONS_SEGMENT : ''}${endpoints.listTeams.path}`;

/** Job 3: every morning, one message naming who is on call, grouped by team, bounded in size. */
export function morningOnCallDigest(target: Target): Blueprint {
  return scenario(
    'Pagerly: every morning, who is on call in every team',
    [
      // Make has no teams module (teams fill a select through an RPC): the app's API call reads them.
      // Its paths are relative to the API base; the team list lives under the rotations base.
      pagerly(target, 1, 'makeApiCall', 0, { mapper: { url: TEAMS_PATH, method: 'GET', headers: [], qs: [] } }),
      { id: 2, module: 'builtin:BasicFeeder', version: 1, mapper: { array: '{{1.body}}' }, metadata: designer(300, 0, 'Each team') },
      pagerly(target, 3, makeNames.getOnCallUsers.name, 600, { mapper: { teamname: '{{2.name}}', limit: 100 } }),
      {
        id: 4,
        module: 'util:TextAggregator',
        version: 1,
        // Source module 1: every bundle after the one API call, all teams, ends in one message.
        // Each line is JSON-escaped here and joined by the two characters `\n`: the text goes into a JSON string as it is.
        parameters: { feeder: 1, rowSeparator: 'other', otherRowSeparator: '\\n' },
        mapper: { value: `${json('3.team.name')}: ${json('3.name')}` },
        metadata: designer(900, 0, 'One message: a line per person, by team'),
      },
      postToChat(5, 1200, `Who is on call this morning:\\n{{substring(4.text; 0; ${DIGEST_MAX_CHARS})}}`),
    ],
    { type: 'daily', time: '08:00' },
    false,
  );
}

/** Each job's folder under templates/ and its blueprint. */
export const makeTemplates = {
  'on-call-change-to-chat': onCallChangeToChat,
  'failed-deploy-incident': failedDeployIncident,
  'morning-on-call-digest': morningOnCallDigest,
} as const satisfies Record<string, (target: Target) => Blueprint>;
