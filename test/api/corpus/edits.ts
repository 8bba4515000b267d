// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the edits are source text, whose template strings they quote as they are.
import type { SurfaceId } from '../../../scripts/api/model.ts';
import type { FileEdit } from './scratch.ts';

/**
 * Realistic pull-request edits, each made as text to a scratch copy of the sources, and what
 * `npm run api:check` must call each on every surface: breaking exactly where a live Zap,
 * scenario, workflow, script, agent or program breaks, compatible (or, where the platform says
 * so, depends) where it changes harmlessly, nothing where it does not reach. Every rule of
 * scripts/api/rules.ts has an entry here; a new rule without one is not done.
 */

/** A surface's verdict, or the verdict and an id (a part of it) one of its differences must have. */
export type Expected = 'breaking' | 'compatible' | 'depends' | readonly ['breaking' | 'compatible' | 'depends', string];

export interface CorpusEdit {
  readonly name: string;
  readonly edits: readonly FileEdit[];
  /** Each surface the edit changes; every surface left out must show no difference at all. */
  readonly expect: Partial<Record<SurfaceId, Expected>>;
  /** After `npm run api:update` the check passes: nothing in it waits for a major version. */
  readonly shipsAfterUpdate?: true;
}

const RUNBOOK = "    { key: 'runbook_url', label: 'Runbook URL', type: 'url', required: false, help: 'Where the runbook lives.' },\n";

export const CORPUS: readonly CorpusEdit[] = [
  // The issue's eight cases.
  {
    name: 'n8n: the directory operations listed first, which moves the node’s default resource',
    edits: [
      {
        file: 'shared/operations/index.ts',
        from: '  createIncident,\n  updateIncident,\n  createDirectoryEntry,\n  updateDirectoryEntry,\n  updateDirectoryPhone,\n  changeDirectoryRole,\n  removeDirectoryEntry,\n  findOnCallUsers,',
        to: '  createDirectoryEntry,\n  updateDirectoryEntry,\n  updateDirectoryPhone,\n  changeDirectoryRole,\n  removeDirectoryEntry,\n  createIncident,\n  updateIncident,\n  findOnCallUsers,',
      },
    ],
    expect: { n8n: ['breaking', 'node/pagerly/v1/property/resource'] },
  },
  {
    name: 'n8n: Update an incident listed before Create, which moves the incident resource’s default operation',
    edits: [
      {
        file: 'shared/operations/index.ts',
        from: '  createIncident,\n  updateIncident,\n  createDirectoryEntry,\n  updateDirectoryEntry,',
        to: '  updateIncident,\n  createIncident,\n  createDirectoryEntry,\n  updateDirectoryEntry,',
      },
    ],
    expect: { n8n: ['breaking', 'node/pagerly/v1/resource/incident/property/operation'] },
  },
  {
    name: 'severity narrowed from any label to P1–P5',
    edits: [
      {
        file: 'shared/schemas/incident.ts',
        from: "severity: z.optional(requiredText(LONGEST.severity, 'must not be empty')),",
        to: 'severity: z.optional(z.enum(suggestedSeverities)),',
      },
    ],
    // Make runs no schema of ours: a scenario's own label still reaches the service.
    expect: {
      zapier: ['breaking', 'create/create_incident/input/severity'],
      n8n: 'breaking',
      mcp: ['breaking', 'tool/create_incident/input/severity'],
      cli: ['breaking', 'command/incident create/request/severity'],
      client: 'breaking',
      openapi: 'breaking',
      'incident-action': ['breaking', 'input/severity'],
    },
  },
  {
    name: 'directory Action: the `mode` input defaults to plan',
    edits: [{ file: 'github-action/directory/build.ts', from: "          default: 'auto',", to: "          default: 'plan'," }],
    expect: { 'directory-action': ['breaking', 'input/mode'] },
  },
  {
    name: 'CLI: `directory phone` takes the phone first',
    edits: [
      {
        file: 'cli/commands/directory.ts',
        from: ".argument('<email>', \"the entry's e-mail\")\n    .argument('<phone>', PHONE_HELP)\n    .action(async (email: string, phone: string) => {",
        to: ".argument('<phone>', PHONE_HELP)\n    .argument('<email>', \"the entry's e-mail\")\n    .action(async (phone: string, email: string) => {",
      },
    ],
    expect: { cli: ['breaking', 'command/directory phone'] },
  },
  {
    name: 'CLI: a rate-limited request exits 1 instead of 75',
    edits: [{ file: 'cli/exit-table.ts', from: "rate_limited: sent('transient', { ifNotRetryable: 'failure' }),", to: "rate_limited: sent('failure')," }],
    expect: { cli: ['breaking', 'error/rate_limited'] },
  },
  {
    name: 'MCP: the HTTP key header renamed',
    edits: [{ file: 'mcp-server/http.ts', from: "export const KEY_HEADER = 'x-apikey';", to: "export const KEY_HEADER = 'x-pagerly-key';" }],
    expect: { mcp: ['breaking', 'http/header/x-apikey'] },
  },
  {
    name: 'CLI: the `invalid_file` error code renamed in --json errors',
    edits: [
      { file: 'cli/cli-errors.ts', from: "readonly code = 'invalid_file';", to: "readonly code = 'bad_file';" },
      { file: 'cli/exit-table.ts', from: "  invalid_file: { exit: 'usage' },", to: "  bad_file: { exit: 'usage' }," },
    ],
    expect: { cli: ['breaking', 'json-error/error.code'] },
  },
  {
    name: 'n8n trigger and on-call watch: the `on_call_started` event type renamed',
    edits: [{ file: 'shared/on-call/changes.ts', from: "started: 'on_call_started'", to: "started: 'started'" }],
    expect: { n8n: ['breaking', 'node/pagerlyTrigger/v1/output/type'], cli: ['breaking', 'command/on-call watch/json-line/type'] },
  },
  {
    name: 'an error code of the API module renamed (rate_limited)',
    edits: [
      { file: 'shared/errors.ts', from: "  | 'rate_limited'", to: "  | 'rate_limit'" },
      { file: 'shared/errors.ts', from: "readonly code = 'rate_limited';", to: "readonly code = 'rate_limit';" },
      { file: 'cli/exit-table.ts', from: "  rate_limited: sent('transient'", to: "  rate_limit: sent('transient'" },
    ],
    expect: { client: ['breaking', 'export/PagerlyErrorCode/values'], cli: ['breaking', 'error/rate_limited'] },
  },
  {
    name: 'Make: the team list’s RPC renamed',
    edits: [
      {
        file: 'make-app/operation-names.ts',
        from: "listTeams: { name: 'listTeams', label: 'List teams' },",
        to: "listTeams: { name: 'listAllTeams', label: 'List teams' },",
      },
    ],
    expect: { make: 'compatible' },
    shipsAfterUpdate: true,
  },
  {
    name: 'MCP: `limit` widened from whole numbers to numbers',
    edits: [
      {
        file: 'mcp-server/tools.ts',
        from: '    z\n      .int()\n      .check(\n        z.minimum(1),',
        to: '    z\n      .number()\n      .check(\n        z.minimum(1),',
      },
    ],
    expect: { mcp: 'compatible' },
    shipsAfterUpdate: true,
  },
  {
    name: 'Zapier: Description made a one-line string field',
    edits: [
      { file: 'shared/operations/create-incident.ts', from: "  label: 'Description',\n  type: 'text',", to: "  label: 'Description',\n  type: 'string'," },
    ],
    expect: { zapier: ['depends', 'create/create_incident/input/description'] },
    shipsAfterUpdate: true,
  },

  // The earlier release checks.
  {
    name: 'an input key renamed (title → headline)',
    edits: [
      {
        file: 'shared/operations/create-incident.ts',
        from: "const titleField: InputField = {\n  key: 'title',",
        to: "const titleField: InputField = {\n  key: 'headline',",
      },
    ],
    expect: {
      zapier: ['breaking', 'create/create_incident/input/title'],
      make: ['breaking', 'module/createIncident/param/title'],
      n8n: ['breaking', 'node/pagerly/v1/operation/incident/create/property/title'],
      mcp: ['breaking', 'tool/create_incident/input/title'],
      'incident-action': ['breaking', 'input/title'],
    },
  },
  {
    name: 'an output removed (the incident’s severity)',
    edits: [{ file: 'shared/operations/create-incident.ts', from: "  { key: 'severity', label: 'Severity', type: 'string' },\n", to: '' }],
    expect: {
      zapier: ['breaking', 'create/create_incident/output/severity'],
      make: ['breaking', 'module/createIncident/output/severity'],
      n8n: ['breaking', 'node/pagerly/v1/operation/incident/create/output/severity'],
      mcp: ['breaking', 'tool/create_incident/output/severity'],
    },
  },
  {
    name: 'an optional input made required (description)',
    edits: [{ file: 'shared/operations/create-incident.ts', from: "  type: 'text',\n  required: false,", to: "  type: 'text',\n  required: true," }],
    expect: { zapier: 'breaking', make: 'breaking', n8n: 'breaking', mcp: 'breaking', 'incident-action': ['breaking', 'input/description'] },
  },
  {
    name: 'CLI: exit code 75 renumbered 76',
    edits: [{ file: 'cli/exit-table.ts', from: '  transient: 75,', to: '  transient: 76,' }],
    expect: { cli: ['breaking', 'exit-code/75'] },
  },
  {
    name: 'CLI: exit code 75’s name in the code made `temporary` (a refactor)',
    edits: [
      { file: 'cli/exit-table.ts', from: "'transient'", to: "'temporary'", all: true },
      { file: 'cli/exit-table.ts', from: '  transient: 75,', to: '  temporary: 75,' },
      { file: 'cli/exit-codes.ts', from: 'EXIT.transient', to: 'EXIT.temporary', all: true },
    ],
    expect: { cli: ['compatible', 'exit-code/75'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'CLI: exit codes 3 and 4 swapped',
    edits: [{ file: 'cli/exit-table.ts', from: '  authentication: 3,\n  permission: 4,', to: '  authentication: 4,\n  permission: 3,' }],
    expect: { cli: ['breaking', 'error/authentication'] },
  },
  {
    name: 'a compatible addition: an optional Runbook URL on incidents',
    edits: [
      { file: 'shared/operations/create-incident.ts', from: '    titleField,\n    severityField,\n', to: `    titleField,\n    severityField,\n${RUNBOOK}` },
    ],
    expect: { zapier: 'compatible', make: 'compatible', n8n: 'compatible', mcp: 'compatible', 'incident-action': 'compatible' },
    shipsAfterUpdate: true,
  },

  // Zapier, Make, n8n.
  {
    name: 'Zapier: the on-call trigger’s key renamed',
    edits: [{ file: 'zapier-app/operation-names.ts', from: "onCallChanged: { key: 'on_call_changed',", to: "onCallChanged: { key: 'on_call_change'," }],
    expect: { zapier: ['breaking', 'trigger/on_call_changed'] },
  },
  {
    name: 'Make: a module renamed',
    edits: [{ file: 'make-app/operation-names.ts', from: "createIncident: { name: 'createIncident',", to: "createIncident: { name: 'createAnIncident'," }],
    expect: { make: ['breaking', 'module/createIncident'] },
  },
  {
    name: 'retiring an operation: Update phone number hidden everywhere, kept running',
    edits: [
      {
        file: 'shared/operations/directory-actions.ts',
        from: 'export const updateDirectoryPhone: ActionOperation = {\n',
        to: "export const updateDirectoryPhone: ActionOperation = {\n  retiring: { since: '0.1.0', use: 'updateDirectoryEntry' },\n",
      },
    ],
    // The service keeps its endpoint: OpenAPI, which documents the service, does not change.
    expect: { zapier: 'compatible', make: 'compatible', n8n: 'compatible', mcp: 'compatible', cli: 'compatible' },
    shipsAfterUpdate: true,
  },
  {
    name: 'n8n: the optional fields’ collection renamed inside typeVersion 1',
    edits: [{ file: 'n8n-app/parameters.ts', from: "additional: { name: 'additionalFields',", to: "additional: { name: 'options'," }],
    expect: { n8n: ['breaking', 'node/pagerly/v1/operation/incident/create/property/additionalFields'] },
  },
  {
    name: 'n8n: Return All on by default',
    edits: [
      {
        file: 'n8n-app/generator/properties.ts',
        from: "          type: 'boolean',\n          default: false,",
        to: "          type: 'boolean',\n          default: true,",
      },
    ],
    expect: { n8n: ['breaking', 'property/returnAll'] },
  },
  {
    name: 'n8n: Limit defaults to 100',
    edits: [{ file: 'n8n-app/parameters.ts', from: 'export const DEFAULT_LIMIT = 50;', to: 'export const DEFAULT_LIMIT = 100;' }],
    expect: { n8n: ['breaking', 'property/limit'] },
  },
  {
    name: 'an incident status removed (acknowledged)',
    edits: [
      {
        file: 'shared/schemas/incident.ts',
        from: "export const incidentStatuses = ['triggered', 'acknowledged', 'resolved'] as const;",
        to: "export const incidentStatuses = ['triggered', 'resolved'] as const;",
      },
    ],
    expect: {
      zapier: 'breaking',
      make: 'breaking',
      n8n: 'breaking',
      mcp: 'breaking',
      cli: 'breaking',
      client: 'breaking',
      openapi: 'breaking',
      'incident-action': 'breaking',
    },
  },
  {
    name: 'an incident status added (snoozed)',
    edits: [
      {
        file: 'shared/schemas/incident.ts',
        from: "export const incidentStatuses = ['triggered', 'acknowledged', 'resolved'] as const;",
        to: "export const incidentStatuses = ['triggered', 'acknowledged', 'resolved', 'snoozed'] as const;",
      },
      { file: 'shared/operations/fields.ts', from: "resolved: 'Resolved' };", to: "resolved: 'Resolved', snoozed: 'Snoozed' };" },
    ],
    expect: {
      zapier: 'compatible',
      make: 'compatible',
      n8n: 'compatible',
      mcp: 'compatible',
      cli: 'compatible',
      client: 'compatible',
      openapi: 'compatible',
      'incident-action': 'compatible',
    },
    shipsAfterUpdate: true,
  },
  {
    name: 'the default API base moved',
    edits: [
      {
        file: 'shared/settings.ts',
        from: "export const DEFAULT_BASE_URL = 'https://api.pagerly.io';",
        to: "export const DEFAULT_BASE_URL = 'https://eu.api.pagerly.io';",
      },
    ],
    // Zapier and Make store the connection's value; everywhere else a saved automation that left it out now calls elsewhere.
    expect: {
      n8n: ['breaking', 'credential/pagerlyApi/property/baseUrl'],
      cli: ['breaking', 'env/PAGERLY_BASE_URL'],
      client: ['breaking', 'export/ClientSettings/member/baseUrl'],
      openapi: 'breaking',
      'incident-action': ['breaking', 'input/base-url'],
      'directory-action': ['breaking', 'input/base-url'],
    },
  },

  // MCP.
  {
    name: 'MCP: a tool renamed (list_teams → get_teams)',
    edits: [{ file: 'mcp-server/operation-names.ts', from: "listTeams: { tool: 'list_teams',", to: "listTeams: { tool: 'get_teams'," }],
    expect: { mcp: ['breaking', 'tool/list_teams'] },
  },
  {
    name: 'MCP: `limit` defaults to 50',
    edits: [{ file: 'mcp-server/tools.ts', from: 'export const DEFAULT_LIMIT = 100;', to: 'export const DEFAULT_LIMIT = 50;' }],
    expect: { mcp: ['breaking', 'input/limit'] },
  },
  {
    name: 'MCP: `limit` capped at 200',
    edits: [{ file: 'mcp-server/tools.ts', from: 'export const MAX_LIMIT = 500;', to: 'export const MAX_LIMIT = 200;' }],
    expect: { mcp: ['breaking', 'input/limit'] },
  },
  {
    name: 'MCP: `limit` allowed up to 1000',
    edits: [{ file: 'mcp-server/tools.ts', from: 'export const MAX_LIMIT = 500;', to: 'export const MAX_LIMIT = 1000;' }],
    expect: { mcp: 'compatible' },
    shipsAfterUpdate: true,
  },
  {
    name: 'MCP: every list tool takes an optional `cursor`, not only who is on call',
    edits: [
      {
        file: 'mcp-server/tools.ts',
        from: '  if (!bounds.filter) return { limit };',
        to: "  const pageCursor = z.optional(z.string().check(z.describe('Where the last answer stopped: its `next_cursor`.')));\n  if (!bounds.filter) return { limit, cursor: pageCursor };",
      },
      {
        file: 'mcp-server/tools.ts',
        from: '  if (!bounds.resumable) return { [bounds.filter.arg]: filter, limit };',
        to: '  if (!bounds.resumable) return { [bounds.filter.arg]: filter, limit, cursor: pageCursor };',
      },
    ],
    expect: { mcp: ['compatible', 'input/cursor'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'MCP: looking up a directory entry (personal data) offered only with --enable-write-tools',
    edits: [
      {
        file: 'mcp-server/tools.ts',
        from: "      writes: operation.kind === 'action',",
        to: "      writes: operation.kind === 'action' || operation.id === 'getDirectoryEntry',",
      },
    ],
    expect: { mcp: ['breaking', 'tool/get_directory_entry'] },
  },
  {
    name: 'MCP: creating an incident offered without --enable-write-tools',
    edits: [
      {
        file: 'mcp-server/tools.ts',
        from: "      writes: operation.kind === 'action',",
        to: "      writes: operation.kind === 'action' && operation.id !== 'createIncident',",
      },
    ],
    expect: { mcp: ['compatible', 'tool/create_incident'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'MCP and CLI: the key’s variable renamed PAGERLY_TOKEN',
    edits: [{ file: 'shared/settings.ts', from: "export const API_KEY_ENV = 'PAGERLY_API_KEY';", to: "export const API_KEY_ENV = 'PAGERLY_TOKEN';" }],
    expect: { mcp: ['breaking', 'env/PAGERLY_API_KEY'], cli: ['breaking', 'env/PAGERLY_API_KEY'] },
  },

  // CLI.
  {
    name: 'CLI: --concurrency renamed --parallel',
    edits: [{ file: 'cli/commands/directory-sync.ts', from: "new Option('--concurrency <n>'", to: "new Option('--parallel <n>'" }],
    expect: { cli: ['breaking', 'command/directory sync/flag/--concurrency'] },
  },
  {
    name: 'CLI: `teams` takes an optional --name-contains',
    edits: [
      {
        file: 'cli/commands/teams.ts',
        from: "    .description('list the teams of the organization')\n",
        to: "    .description('list the teams of the organization')\n    .option('--name-contains <text>', 'only teams whose name contains this')\n",
      },
    ],
    expect: { cli: ['compatible', 'command/teams/flag/--name-contains'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'CLI and client: requests time out after 30 s by default',
    edits: [{ file: 'shared/transports/defaults.ts', from: '  timeoutMs: 15_000,', to: '  timeoutMs: 30_000,' }],
    expect: { cli: ['breaking', 'flag/--timeout'], client: ['breaking', 'export/ClientSettings/member/timeoutMs'] },
  },
  {
    name: 'CLI: --retries allowed only up to 5',
    edits: [{ file: 'cli/main.ts', from: "wholeNumber('--retries', 0, 10)", to: "wholeNumber('--retries', 0, 5)" }],
    expect: { cli: ['breaking', 'flag/--retries'] },
  },
  {
    name: 'CLI: `directory import` retries 3 times by default, not 6',
    edits: [{ file: 'cli/command-defaults.ts', from: "'directory import': { retries: 6 }", to: "'directory import': { retries: 3 }" }],
    expect: { cli: ['breaking', 'command/directory import/flag/--retries'] },
  },
  {
    name: 'CLI: PAGERLY_BASE_URL renamed PAGERLY_API_URL',
    edits: [{ file: 'cli/settings.ts', from: "  baseUrl: 'PAGERLY_BASE_URL',", to: "  baseUrl: 'PAGERLY_API_URL'," }],
    expect: { cli: ['breaking', 'env/PAGERLY_BASE_URL'] },
  },
  {
    name: 'CLI: a new command `directory export <file>` reading PAGERLY_EXPORT_FORMAT',
    edits: [
      {
        file: 'cli/commands/directory.ts',
        from: '  registerDirectoryImport(directory, ctx);',
        to: "  registerDirectoryImport(directory, ctx);\n  directory\n    .command('export')\n    .description('write the directory to a people file')\n    .argument('<file>', 'the .yaml or .csv file to write')\n    .option('--dry-run', 'print what would be written; write nothing')\n    .action(async () => {});",
      },
      { file: 'cli/settings.ts', from: '  ...SOURCE_ENV,\n} as const;', to: "  ...SOURCE_ENV,\n  exportFormat: 'PAGERLY_EXPORT_FORMAT',\n} as const;" },
      {
        file: 'cli/settings.ts',
        from: '  ...SOURCE_ENV_USES,\n};',
        to: "  ...SOURCE_ENV_USES,\n  exportFormat: 'yaml or csv, when the file name does not say',\n};",
      },
    ],
    expect: { cli: ['compatible', 'command/directory export'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'CLI: the sync’s --json summary key toCreate renamed create',
    edits: [{ file: 'cli/json-documents.ts', from: '  toCreate: number;', to: '  create: number;' }],
    expect: { cli: ['breaking', 'command/directory sync/json/summary.toCreate'] },
  },
  {
    name: 'CLI: the sync’s --json document gains optional warnings',
    edits: [
      {
        file: 'cli/json-documents.ts',
        from: '  dryRun: boolean;\n',
        to: '  dryRun: boolean;\n  /** What a person should know before trusting the plan. */\n  warnings?: string[];\n',
      },
    ],
    expect: { cli: ['compatible', 'command/directory sync/json/warnings'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'CLI: --severity of incident create limited to P1–P5',
    edits: [
      {
        file: 'cli/commands/incident.ts',
        from: ".option('--severity <label>', `${suggestedSeverities.join(', ')} or your own label (default: the service's, P3)`)",
        to: ".addOption(new Option('--severity <label>', 'the severity').choices(suggestedSeverities))",
      },
    ],
    expect: { cli: ['breaking', 'command/incident create/flag/--severity'] },
  },
  {
    name: 'CLI: `teams` takes an optional filter after its arguments',
    edits: [
      {
        file: 'cli/commands/teams.ts',
        from: "    .description('list the teams of the organization')\n",
        to: "    .description('list the teams of the organization')\n    .argument('[filter]', 'only teams whose name contains this')\n",
      },
    ],
    expect: { cli: ['compatible', 'command/teams'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'CLI: on-call watch looks every 5 minutes by default',
    edits: [
      {
        file: 'cli/commands/on-call.ts',
        from: "'time between looks: 90, 90s, 5m (at least 1s)', '60s')",
        to: "'time between looks: 90, 90s, 5m (at least 1s)', '5m')",
      },
    ],
    expect: { cli: ['breaking', 'command/on-call watch/flag/--interval'] },
  },
  {
    name: 'CLI: a failed sync’s exit code ranks 75 above 5',
    edits: [
      {
        file: 'cli/exit-table.ts',
        from: "'configuration', 'mayHaveApplied', 'transient', 'failure'];",
        to: "'configuration', 'transient', 'mayHaveApplied', 'failure'];",
      },
    ],
    expect: { cli: ['breaking', 'exit-code-order'] },
  },
  {
    name: 'MCP and CLI: `pagerly mcp --http` listens on port 8792 by default',
    edits: [{ file: 'mcp-server/http.ts', from: 'export const DEFAULT_HTTP_PORT = 8791;', to: 'export const DEFAULT_HTTP_PORT = 8792;' }],
    expect: { mcp: ['breaking', 'http/port'], cli: ['breaking', 'command/mcp/flag/--port'] },
  },

  // The client, OpenAPI, the Actions.
  {
    name: 'client: a transport setting added (maxRedirects)',
    edits: [
      {
        file: 'shared/transports/fetch-transport.ts',
        from: '  /** Extra attempts after the first; default 2. */\n',
        to: '  /** How many same-origin redirects are followed. */\n  maxRedirects?: number;\n  /** Extra attempts after the first; default 2. */\n',
      },
    ],
    expect: { client: ['compatible', 'export/ClientSettings/member/maxRedirects'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'client: fetchTransport no longer exported',
    edits: [
      {
        file: 'client/index.ts',
        from: "export { fetchTransport, type FetchTransportOptions, type ProxyEnv, type RetryNotice } from '../shared/transports/fetch-transport.ts';",
        to: "export type { FetchTransportOptions, ProxyEnv, RetryNotice } from '../shared/transports/fetch-transport.ts';",
      },
    ],
    expect: { client: ['breaking', 'export/fetchTransport'] },
  },
  {
    name: 'OpenAPI: a create’s Location header left out',
    edits: [{ file: 'openapi/generator/document.ts', from: '...(endpoint.createsUnless ? { headers: { Location: LOCATION_HEADER } } : {}),', to: '' }],
    expect: { openapi: 'breaking' },
  },
  {
    name: 'the key’s header spelled X-ApiKey (header names ignore letter case)',
    edits: [{ file: 'shared/http/types.ts', from: "export const API_KEY_HEADER = 'X-APIKEY';", to: "export const API_KEY_HEADER = 'X-ApiKey';" }],
    expect: { openapi: ['compatible', 'security/ApiKey'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'incident Action: the `team` input named `team-name`',
    edits: [{ file: 'github-action/names.ts', from: "{ teamname: 'team' }", to: "{ teamname: 'team-name' }" }],
    expect: { 'incident-action': ['breaking', 'input/team'] },
  },
  {
    name: 'directory Action: a `check` mode added',
    edits: [{ file: 'github-action/directory/modes.ts', from: "['auto', ...DIRECTORY_RUN_MODES]", to: "['auto', 'check', ...DIRECTORY_RUN_MODES]" }],
    expect: { 'directory-action': ['compatible', 'input/mode'] },
    shipsAfterUpdate: true,
  },
  {
    name: 'directory Action: the `changed` output dropped',
    edits: [
      { file: 'github-action/directory/build.ts', from: "  changed: '`true` when the directory changed (applied) or would change (planned).',\n", to: '' },
    ],
    expect: { 'directory-action': ['breaking', 'output/changed'] },
  },
  {
    name: 'directory Action: the `mode` output says `dry-run` for a plan',
    edits: [
      {
        file: 'github-action/directory/modes.ts',
        from: "export const DIRECTORY_RUN_MODES = ['plan', 'apply'] as const;",
        to: "export const DIRECTORY_RUN_MODES = ['dry-run', 'apply'] as const;",
      },
    ],
    expect: { 'directory-action': ['breaking', 'output/mode'] },
  },
  // One entry at least for each rule the other entries do not reach.
  {
    name: 'Zapier: the on-call trigger made a polling trigger',
    edits: [{ file: 'zapier-app/triggers/on-call-changed.ts', from: "type: 'hook' as const,", to: "type: 'polling' as const," }],
    expect: { zapier: ['breaking', 'trigger/on_call_changed'] },
  },
  {
    name: 'CLI: `mcp --tools` takes several values',
    edits: [{ file: 'cli/commands/mcp.ts', from: '.option(`${TOOLS_FLAG} <names>`,', to: '.option(`${TOOLS_FLAG} <names...>`,' }],
    expect: { cli: ['breaking', 'command/mcp/flag/--tools'] },
  },
  {
    name: 'CLI: `on-call watch --once` takes an optional number of looks',
    edits: [{ file: 'cli/commands/on-call.ts', from: ".option('--once', ", to: ".option('--once [looks]', " }],
    expect: { cli: ['breaking', 'command/on-call watch/flag/--once'] },
  },
  {
    name: 'client: fetchTransport’s options made required',
    edits: [
      {
        file: 'shared/transports/fetch-transport.ts',
        from: 'export function fetchTransport(options: FetchTransportOptions = {}): Transport {',
        to: 'export function fetchTransport(options: FetchTransportOptions): Transport {',
      },
    ],
    expect: { client: ['breaking', 'export/fetchTransport'] },
  },
  {
    name: 'Make: e-mail parameters no longer allow spaces before the address',
    edits: [
      {
        file: 'make-app/generator/parameters.ts',
        // The leading `\\s*` of the pattern, as the source spells it.
        from: String.raw`{ pattern: ${'`'}^\\s*(?=`,
        to: '{ pattern: `^(?=',
      },
    ],
    expect: { make: ['breaking', 'module/createDirectoryEntry/param/email'] },
  },
  {
    name: 'Make: action fields made static parameters',
    edits: [
      {
        file: 'make-app/generator/modules.ts',
        from: '    mappableParams: operation.inputFields.map((field) => makeParameter(field, rpcModeOf(operation.effect))),',
        to: '    staticParams: operation.inputFields.map((field) => makeParameter(field, rpcModeOf(operation.effect))),\n    mappableParams: [],',
      },
    ],
    expect: { make: ['breaking', 'module/createIncident/param/title'] },
  },
  {
    name: 'severity suggestions become fixed choices (no own labels typed or mapped)',
    edits: [{ file: 'shared/operations/fields.ts', from: '  required: false,\n  customValueAllowed: true,\n', to: '  required: false,\n' }],
    expect: { make: ['breaking', 'module/createIncident/param/severity'], 'incident-action': ['breaking', 'input/severity'] },
  },
  {
    name: 'severity suggestions list P3, the service’s default, first (what n8n puts in a new Severity field)',
    edits: [
      {
        file: 'shared/operations/fields.ts',
        from: '  choices: suggestedSeverities.map((value) => ({ value, label: severityLabels[value] })),',
        to: "  choices: (['P3', 'P1', 'P2', 'P4', 'P5'] as const).map((value) => ({ value, label: severityLabels[value] })),",
      },
    ],
    expect: { n8n: ['compatible', 'additionalFields/severity'], 'incident-action': 'compatible' },
    shipsAfterUpdate: true,
  },
  {
    name: 'MCP: the HTTP endpoint moved to /v1/mcp',
    edits: [{ file: 'mcp-server/http.ts', from: "export const MCP_PATH = '/mcp';", to: "export const MCP_PATH = '/v1/mcp';" }],
    expect: { mcp: ['breaking', 'http'] },
  },
  {
    name: 'incident titles limited to 100 characters',
    edits: [{ file: 'shared/schemas/text-limits.ts', from: '  title: 255,', to: '  title: 100,' }],
    expect: {
      zapier: ['breaking', 'create/create_incident/input/title'],
      n8n: 'breaking',
      mcp: ['breaking', 'tool/create_incident/input/title'],
      cli: ['breaking', 'command/incident create/request/title'],
      openapi: 'breaking',
      'incident-action': ['breaking', 'input/title'],
    },
  },
  {
    name: 'MCP: `limit` must be at least 5',
    edits: [
      { file: 'mcp-server/tools.ts', from: '        z.minimum(1),\n        z.maximum(MAX_LIMIT),', to: '        z.minimum(5),\n        z.maximum(MAX_LIMIT),' },
    ],
    expect: { mcp: ['breaking', 'input/limit'] },
  },
  {
    name: 'MCP: name filters need 3 characters at least',
    edits: [
      {
        file: 'mcp-server/tools.ts',
        from: 'z.string().check(z.minLength(1), z.maxLength(200), z.describe(`${what}',
        to: 'z.string().check(z.minLength(3), z.maxLength(200), z.describe(`${what}',
      },
    ],
    expect: { mcp: ['breaking', 'input/name_contains'] },
  },
  {
    name: 'the sandbox gains an --allowed-hosts option (no surface)',
    edits: [{ file: 'sandbox/cli.ts', from: "    state: { type: 'string' },", to: "    state: { type: 'string' },\n    'allowed-hosts': { type: 'string' }," }],
    expect: {},
    shipsAfterUpdate: true,
  },
];
