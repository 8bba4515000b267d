// Deploy settings from the environment. Formats are left to Make's API; what is checked here is
// what no request can tell a user clearly: a setting that is missing.

export interface DeploySettings {
  /** Make API token (scopes sdk-apps:read and sdk-apps:write); empty in a dry run without one. */
  token: string;
  /** The zone's host, e.g. eu1.make.com. */
  zone: string;
  appName: string;
  appVersion: number;
  /** Used when the app is created. */
  appLabel: string;
  appDescription?: string;
  appTheme: string;
}

type Env = Readonly<Record<string, string | undefined>>;

export function readSettings(env: Env, { requireToken = true } = {}): { settings: DeploySettings } | { problems: string[] } {
  const value = (name: string) => env[name]?.trim() || undefined;
  const [token, zone, appName, version] = ['MAKE_API_TOKEN', 'MAKE_ZONE', 'MAKE_APP_NAME', 'MAKE_APP_VERSION'].map(value);
  const appVersion = Number(version ?? 1);
  const problems = [
    ...(!token && requireToken
      ? [
          'MAKE_API_TOKEN is not set: create an API token in Make (your profile → API access) with the scopes sdk-apps:read and sdk-apps:write, then `export MAKE_API_TOKEN=<token>`.',
        ]
      : []),
    ...(!zone ? ["MAKE_ZONE is not set: the host of your Make zone, as in your browser's address bar, e.g. `export MAKE_ZONE=eu1.make.com`."] : []),
    ...(!appName ? ['MAKE_APP_NAME is not set: the app\'s ID in Make (lower-case letters, digits and "-"), e.g. `export MAKE_APP_NAME=pagerly-acme`.'] : []),
    ...(!Number.isInteger(appVersion) || appVersion < 1
      ? [`MAKE_APP_VERSION must be a whole number from 1 (the app's major version): got ${JSON.stringify(version)}.`]
      : []),
  ];
  if (problems.length > 0 || !zone || !appName) return { problems };
  const appDescription = value('MAKE_APP_DESCRIPTION');
  return {
    settings: {
      token: token ?? '',
      zone,
      appName,
      appVersion,
      // "pagerly-acme" → "Pagerly Acme"
      appLabel:
        value('MAKE_APP_LABEL') ??
        appName
          .split('-')
          .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
          .join(' '),
      ...(appDescription ? { appDescription } : {}),
      appTheme: value('MAKE_APP_THEME') ?? '#3B5BDB',
    },
  };
}

export const settingsHelp = (problems: readonly string[]): string[] => [
  `Cannot deploy: ${problems.length === 1 ? '1 setting is' : `${problems.length} settings are`} missing or invalid.`,
  ...problems.map((problem) => `  - ${problem}`),
  'Set them in the environment, for example:',
  '  MAKE_API_TOKEN=<your token> MAKE_ZONE=eu1.make.com MAKE_APP_NAME=pagerly-acme npm run make:deploy',
  'Optional: MAKE_APP_VERSION (default 1), MAKE_APP_LABEL, MAKE_APP_DESCRIPTION and MAKE_APP_THEME (used when the app is created).',
];
