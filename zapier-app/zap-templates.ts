// The Zap templates of the ready-made jobs, as a partner submits them to Zapier (title,
// description, steps with app and trigger/action keys, field mappings). docs/zapier.md shows
// them; test/zapier/templates.test.ts runs each Pagerly step on zapier-platform-core, mapping
// the step before's output in by the keys Zapier shows (nested output flattened: `team__name`).

/**
 * Zapier's API name of each of its own apps: what a Zap's step names as its app (`selected_api`,
 * `steps[n][app]` of a pre-filled Zap: docs.zapier.com/powered-by-zapier/embedding-zapier/pre-filled-zaps
 * shows `WeatherCLIAPI@latest`), as public Zap exports spell them (`WebHookCLIAPI@1.1.1:hook_v2`,
 * `ScheduleCLIAPI@1.7.0` / `everyDay`). Pagerly's is `App<id>CLIAPI`, given when the app is pushed.
 * Digest's and Storage's are seen only in lower case in public code: confirm them in the Zap editor.
 */
export const zapierApiNames = {
  'Webhooks by Zapier': 'WebHookCLIAPI',
  'Schedule by Zapier': 'ScheduleCLIAPI',
  'Filter by Zapier': 'FilterAPI',
  'Paths by Zapier': 'BranchingAPI',
  'Looping by Zapier': 'ZapierLoopingCLIAPI',
  'Digest by Zapier': 'DigestCLIAPI',
  'Storage by Zapier': 'StorageCLIAPI',
} as const;

export interface ZapStep {
  /** Our app, or one of Zapier's built-in apps by the name Zapier's editor shows. */
  readonly app: 'Pagerly' | keyof typeof zapierApiNames;
  readonly type: 'trigger' | 'action' | 'search' | 'filter';
  /** The trigger's, action's or search's key (for Pagerly, the key in the app definition; for Zapier's apps, the key its API names: Catch Hook is `hook_v2`). */
  readonly key: string;
  /** Field → value; `{{N.key}}` maps output `key` of step N (1-based), as Zapier's editor inserts it. */
  readonly fields: Readonly<Record<string, string>>;
  /** Paths by Zapier: the steps of one path, after its rule. */
  readonly path?: string;
}

export interface ZapTemplate {
  readonly title: string;
  readonly description: string;
  readonly steps: readonly ZapStep[];
  /** A template started by a Catch Hook: who can start it, and what to do when its URL leaks. */
  readonly trigger?: string;
}

const chat = (text: string): ZapStep => ({
  app: 'Webhooks by Zapier',
  type: 'action',
  key: 'post',
  fields: { url: '(your incoming-webhook URL)', payload_type: 'json', data__text: text },
});

/** Where job 2's Zap keeps the open incident's ID: one per service and environment. */
const deployKey = 'pagerly-deploy-{{1.service}}-{{1.environment}}';

export const zapTemplates: readonly ZapTemplate[] = [
  {
    title: 'Tell the team when the on-call person changes',
    description: "Post to your team's chat who went on and who went off call, the moment a Pagerly on-call change happens.",
    steps: [
      { app: 'Pagerly', type: 'trigger', key: 'on_call_changed', fields: { teamname: '(your team)' } },
      chat('On call for {{1.team__name}}: {{1.current_names}} (was {{1.previous_names}})'),
    ],
  },
  {
    title: 'Open a Pagerly incident when a deploy fails',
    // Catch Hook always answers with Zapier's own success message, which cannot be customized
    // (help.zapier.com/hc/en-us/articles/8496288690317): the incident's ID cannot go back to the
    // pipeline in the answer, so Storage by Zapier keeps it, keyed by service and environment.
    description:
      'Your pipeline calls the Zap with the service, the environment and the deploy status. A failure opens a Pagerly incident, or updates the one still open; the next good deploy resolves it. Storage by Zapier keeps the open incident for each service and environment.',
    steps: [
      { app: 'Webhooks by Zapier', type: 'trigger', key: 'hook_v2', fields: {} },
      { app: 'Storage by Zapier', type: 'action', key: 'get_value', fields: { key: deployKey } },
      {
        app: 'Pagerly',
        type: 'action',
        key: 'create_incident',
        path: 'Failed, none open: status is failure, step 2 value does not exist',
        fields: { title: 'Deploy of {{1.service}} to {{1.environment}} failed', severity: 'P2', description: 'See {{1.run_url}}' },
      },
      {
        app: 'Storage by Zapier',
        type: 'action',
        key: 'set_value',
        path: 'Failed, none open: status is failure, step 2 value does not exist',
        fields: { key: deployKey, value: '{{3.id}}' },
      },
      {
        app: 'Pagerly',
        type: 'action',
        key: 'update_incident',
        path: 'Failed again: status is failure, step 2 value exists',
        fields: { id: '{{2.value}}', title: 'Deploy of {{1.service}} to {{1.environment}} failed', description: 'Failed again: see {{1.run_url}}' },
      },
      {
        app: 'Pagerly',
        type: 'action',
        key: 'update_incident',
        path: 'Good deploy, one open: status is success, step 2 value exists',
        fields: {
          id: '{{2.value}}',
          title: 'Deploy of {{1.service}} to {{1.environment}} failed',
          status: 'resolved',
          description: 'Resolved by {{1.run_url}}',
        },
      },
      {
        app: 'Storage by Zapier',
        type: 'action',
        key: 'remove_value',
        path: 'Good deploy, one open: status is success, step 2 value exists',
        fields: { key: deployKey },
      },
    ],
    // Catch Hook takes no header or password: its URL is the secret, and it never changes for a
    // Zap (help.zapier.com/hc/en-us/articles/8496288690317: "the webhook URL (which is always the
    // same for a Zap)"), so retiring a leaked one takes a new Zap.
    trigger:
      "The Catch Hook URL is the Zap's only protection: anyone who has it can open and resolve incidents, like a bearer token in the URL. Keep it in your pipeline's secret store, never in the repository or a build log. It never changes for a Zap; if it leaks, build the Zap again from this template (a new Zap gets its own URL), point the pipeline at the new URL, then turn off and delete the old Zap.",
  },
  {
    title: 'Post who is on call every morning',
    description: "Every morning, one message in your team's chat naming who is on call in each of your teams.",
    steps: [
      { app: 'Schedule by Zapier', type: 'trigger', key: 'everyDay', fields: { hod: '8:00 AM', weekends: 'yes' } },
      { app: 'Looping by Zapier', type: 'action', key: 'create_loop_from_text', fields: { values__teams: '(your teams, comma-separated)' } },
      { app: 'Pagerly', type: 'search', key: 'find_on_call_users', fields: { teamname: '{{2.loop_value}}' } },
      {
        app: 'Digest by Zapier',
        type: 'action',
        key: 'append_entry_and_schedule_digest',
        fields: { title: 'On call this morning', entry: '{{3.team__name}}: {{3.on_call_names}}', frequency: 'trigger_count' },
      },
      chat('Who is on call this morning:\n{{4.digest}}'),
    ],
  },
];
