// Deploy settings from the environment. A problem message never holds the token's value.

export interface DeploySettings {
  /** Make API token (sdk-apps:read + sdk-apps:write scopes). Empty in a dry run without one. */
  token: string;
  /** Make zone host, e.g. eu1.make.com (no scheme, no path). */
  zone: string;
  /** The app's name (ID) in Make. */
  appName: string;
  appVersion: number;
  /** Used when the app is created. */
  appLabel: string;
  appDescription?: string;
  appTheme: string;
}

export type SettingsResult = { ok: true; settings: DeploySettings } | { ok: false; problems: string[] };

export const APP_NAME_PATTERN = /^[a-z][0-9a-z-]{1,28}[0-9a-z]$/;
const HOST_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:[0-9]{1,5})?$/i;
const THEME_PATTERN = /^#[0-9a-f]{6}$/i;
export const DEFAULT_THEME = '#3B5BDB';

type Env = Readonly<Record<string, string | undefined>>;

const value = (env: Env, name: string): string | undefined => {
  const text = env[name]?.trim();
  return text ? text : undefined;
};

/** "pagerly-acme" → "Pagerly Acme", the label of a new app when MAKE_APP_LABEL is not set. */
const labelFromName = (name: string): string =>
  name.split('-').filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ');

export function readSettings(env: Env, { requireToken = true } = {}): SettingsResult {
  const problems: string[] = [];

  const token = value(env, 'MAKE_API_TOKEN');
  if (!token) {
    if (requireToken) {
      problems.push('MAKE_API_TOKEN is not set: create an API token in Make (your profile → API access) with the scopes sdk-apps:read and sdk-apps:write, then `export MAKE_API_TOKEN=<token>`.');
    }
  } else if (/\s/.test(token)) {
    problems.push('MAKE_API_TOKEN holds whitespace inside it: copy the token again, exactly as Make shows it.');
  }

  const zone = value(env, 'MAKE_ZONE');
  if (!zone) {
    problems.push('MAKE_ZONE is not set: the host of your Make zone, as in your browser\'s address bar, e.g. `export MAKE_ZONE=eu1.make.com`.');
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(zone)) {
    problems.push(`MAKE_ZONE must be the host only, without a scheme: got ${JSON.stringify(zone)}; use e.g. \`export MAKE_ZONE=${hostOf(zone) ?? 'eu1.make.com'}\`.`);
  } else if (zone.includes('/')) {
    problems.push(`MAKE_ZONE must be the host only, without a path: got ${JSON.stringify(zone)}; use e.g. \`export MAKE_ZONE=${zone.split('/')[0] || 'eu1.make.com'}\`.`);
  } else if (!HOST_PATTERN.test(zone)) {
    problems.push(`MAKE_ZONE is not a host name: got ${JSON.stringify(zone)}; use e.g. \`export MAKE_ZONE=eu1.make.com\`.`);
  }

  const appName = value(env, 'MAKE_APP_NAME');
  if (!appName) {
    problems.push('MAKE_APP_NAME is not set: the app\'s ID in Make (3-30 lower-case letters, digits and "-", starting with a letter), e.g. `export MAKE_APP_NAME=pagerly-acme`.');
  } else if (!APP_NAME_PATTERN.test(appName)) {
    problems.push(`MAKE_APP_NAME ${JSON.stringify(appName)} is not a valid app ID: 3-30 lower-case letters, digits and "-", starting with a letter and not ending with "-" (e.g. pagerly-acme).`);
  }

  const versionText = value(env, 'MAKE_APP_VERSION');
  const appVersion = versionText === undefined ? 1 : Number(versionText);
  if (!Number.isInteger(appVersion) || appVersion < 1 || !/^[0-9]+$/.test(versionText ?? '1')) {
    problems.push(`MAKE_APP_VERSION must be a whole number from 1 (the app's major version; 1 for a new app): got ${JSON.stringify(versionText)}.`);
  }

  const appTheme = value(env, 'MAKE_APP_THEME') ?? DEFAULT_THEME;
  if (!THEME_PATTERN.test(appTheme)) {
    problems.push(`MAKE_APP_THEME must be a colour like #3B5BDB: got ${JSON.stringify(appTheme)}.`);
  }

  if (problems.length > 0) return { ok: false, problems };
  const appDescription = value(env, 'MAKE_APP_DESCRIPTION');
  return {
    ok: true,
    settings: {
      token: token ?? '',
      zone: zone!.toLowerCase(),
      appName: appName!,
      appVersion,
      appLabel: value(env, 'MAKE_APP_LABEL') ?? labelFromName(appName!),
      ...(appDescription ? { appDescription } : {}),
      appTheme,
    },
  };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/** The text shown for settings problems (exit code 2). */
export function settingsHelp(problems: readonly string[]): string[] {
  return [
    `Cannot deploy: ${problems.length === 1 ? '1 setting is' : `${problems.length} settings are`} missing or invalid.`,
    ...problems.map((problem) => `  - ${problem}`),
    'Set them in the environment, for example:',
    '  MAKE_API_TOKEN=<your token> MAKE_ZONE=eu1.make.com MAKE_APP_NAME=pagerly-acme npm run make:deploy',
    'Optional: MAKE_APP_VERSION (default 1), MAKE_APP_LABEL, MAKE_APP_DESCRIPTION and MAKE_APP_THEME (used when the app is created).',
  ];
}
