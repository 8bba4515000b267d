/** The connection both platforms ask for: one API key. */
export const connection = {
  label: 'Pagerly',
  /** Where the key is found (assumption `dashboard`); the key's help names it, and a platform that renders links links it. */
  dashboard: { name: 'Pagerly dashboard', url: 'https://pagerly.io' },
  apiKeyField: {
    key: 'apiKey',
    label: 'API Key',
    help: 'An org admin generates API keys in the Pagerly dashboard (menu: API keys, then "Generate key"); the key is shown once, so copy it then. The key acts as the person who generated it: actions marked "org admin only" need an org admin\'s key.',
  },
  /** How the connection is checked. */
  testEndpoint: 'checkApiKey',
} as const;
