/**
 * The n8n package's public names. A node's `name` and a credential's `name` are stored in
 * every workflow that uses them: renaming one breaks users' workflows, like a Zapier key.
 */
export const PACKAGE_NAME = 'n8n-nodes-pagerly';
export const CREDENTIAL = { name: 'pagerlyApi', displayName: 'Pagerly API', className: 'PagerlyApi' } as const;
export const ACTION_NODE = { name: 'pagerly', displayName: 'Pagerly', className: 'Pagerly' } as const;
export const TRIGGER_NODE = { name: 'pagerlyTrigger', displayName: 'Pagerly Trigger', className: 'PagerlyTrigger' } as const;
/** The `listSearch` method behind every team resource locator ("From List"). */
export const TEAM_SEARCH_METHOD = 'searchTeams';
/** How the credential's form labels its base fields; the credential test's messages name them so. */
export const BASE_FIELD_LABELS = { api: 'Base URL', rotations: 'Rotations Base URL' } as const;
/** Credential fields besides the API key (whose key comes from the shared connection). */
export const BASE_URL_FIELD = 'baseUrl';
export const ROTATIONS_BASE_URL_FIELD = 'rotationsBaseUrl';
/** Where the polling trigger keeps, in the workflow's static data, who was on call at its last poll. */
export const POLL_STATE_KEY = 'onCallSnapshot';
/** n8n draws the light icon on light themes and the dark one on dark themes. */
export const ICON_FILES = { light: 'pagerly.svg', dark: 'pagerly.dark.svg' } as const;
/**
 * The package's own repository, whose root is the package (dist/n8n/, written there by
 * `npm run n8n:repo`): npm provenance, which n8n requires of verified community nodes, must
 * match the repository whose workflow publishes, and n8n's community lint refuses a
 * `repository.directory`, so the package is published from a repository of its own.
 */
export const REPOSITORY_URL = 'https://github.com/pagerly/n8n-nodes-pagerly';
export const REPOSITORY = { type: 'git', url: `git+${REPOSITORY_URL}.git` } as const;
