import { InvalidInputError } from '../shared/errors.ts';
import { DEBUG_ENV } from '../shared/http/trace.ts';
import { SOURCE_ENV, SOURCE_ENV_USES, SOURCES } from '../shared/directory-import/sources.ts';
import { API_KEY_ENV, DEFAULT_BASE_URL, resolveBases } from '../shared/settings.ts';
import { UsageError } from './cli-errors.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** The global flags as commander parsed them. */
export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  rotationsBaseUrl?: string;
  json?: boolean;
  timeout?: number;
  retries?: number;
  debug?: boolean;
}

export interface CliSettings {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  rotationsBaseUrl: string | undefined;
  timeoutMs: number | undefined;
  retries: number | undefined;
}

/**
 * Every environment variable the CLI reads, in one place: the code reads each through this
 * list, and help and the CLI's public-interface report (scripts/api/surfaces/cli.ts) list it.
 * Scripts and pipelines set these, so a name is public contract.
 */
export const ENV = {
  apiKey: API_KEY_ENV,
  baseUrl: 'PAGERLY_BASE_URL',
  rotationsBaseUrl: 'PAGERLY_ROTATIONS_BASE_URL',
  debug: DEBUG_ENV,
  // Read by the fetch transport from the environment the CLI hands it (`proxyEnv`), lower case first.
  httpsProxy: 'HTTPS_PROXY',
  httpProxy: 'HTTP_PROXY',
  noProxy: 'NO_PROXY',
  // Read by Node itself before any of our code runs.
  extraCaCerts: 'NODE_EXTRA_CA_CERTS',
  noColor: 'NO_COLOR',
  forceColor: 'FORCE_COLOR',
  term: 'TERM',
  // `directory import`: each source's key and API base (shared/directory-import/sources.ts).
  ...SOURCE_ENV,
} as const;

/**
 * What a variable stands for when neither it nor its flag is given: resolveSettings applies it,
 * help says it, and the interface report lists it (a script that sets neither gets it).
 */
export const ENV_DEFAULTS: Partial<Readonly<Record<keyof typeof ENV, string>>> = { baseUrl: DEFAULT_BASE_URL };

/** What each variable does, as the interface report and help say it. */
export const ENV_USES: Readonly<Record<keyof typeof ENV, string>> = {
  apiKey: 'the API key (safer than --api-key: a command line is visible to other users)',
  baseUrl: 'the API base, when --base-url is not given',
  rotationsBaseUrl: 'the rotations base, when --rotations-base-url is not given',
  debug: '1 traces each request on stderr, as --debug does',
  httpsProxy: 'the proxy for https requests (also https_proxy)',
  httpProxy: 'the proxy for http requests (also http_proxy)',
  noProxy: 'hosts reached without the proxy (also no_proxy)',
  extraCaCerts: "a file of extra CA certificates, for a private CA (Node's own)",
  noColor: 'any non-empty value turns colour off',
  forceColor: 'colour on even when stderr is not a terminal (0 or false: off)',
  term: 'dumb turns colour off',
  ...SOURCE_ENV_USES,
};

const given = (value: string | undefined) => (value?.trim() ? value : undefined);

/** Flags first, then the environment; base URLs are checked here so a typo is bad usage (exit 2). */
export function resolveSettings(options: GlobalOptions, env: Env): CliSettings {
  const settings: CliSettings = {
    apiKey: given(options.apiKey) ?? given(env[ENV.apiKey]),
    baseUrl: given(options.baseUrl) ?? given(env[ENV.baseUrl]) ?? ENV_DEFAULTS.baseUrl,
    rotationsBaseUrl: given(options.rotationsBaseUrl) ?? given(env[ENV.rotationsBaseUrl]),
    timeoutMs: options.timeout === undefined ? undefined : Math.round(options.timeout * 1000),
    retries: options.retries,
  };
  try {
    resolveBases(settings);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const which = error.problems[0]?.field === 'rotationsBaseUrl' ? `--rotations-base-url (or ${ENV.rotationsBaseUrl})` : `--base-url (or ${ENV.baseUrl})`;
    throw new UsageError(`${which} must be an http or https URL, e.g. ${DEFAULT_BASE_URL}`);
  }
  return settings;
}

/** For `--help`: every variable, one line each, from the same list the code reads. */
export function environmentHelp(): string {
  const width = Math.max(...Object.values(ENV).map((name) => name.length));
  return `Environment:\n${(Object.keys(ENV) as (keyof typeof ENV)[]).map((key) => `  ${ENV[key].padEnd(width)}  ${ENV_USES[key]}`).join('\n')}`;
}

/**
 * The key wherever it may be, read before the arguments are parsed, so that even a
 * parse error message (or a key typed in the wrong place) is redacted.
 */
export function secretsIn(argv: readonly string[], env: Env): string[] {
  const secrets = new Set<string>();
  const add = (value: string | undefined) => {
    if (value?.trim()) {
      secrets.add(value);
      secrets.add(value.trim());
    }
  };
  add(env[ENV.apiKey]);
  // The sources' keys of `directory import`: no output shows them either.
  for (const source of Object.values(SOURCES)) add(env[source.keyVariable]);
  argv.forEach((arg, i) => {
    if (arg === '--api-key') add(argv[i + 1]);
    else if (arg.startsWith('--api-key=')) add(arg.slice('--api-key='.length));
  });
  return [...secrets];
}

/**
 * A numeric flag's parser, with the range it accepts said beside it: a script that passes a
 * value the range later drops fails, so the CLI's interface report lists each range.
 */
export type RangedParser = ((value: string) => number) & { readonly range: { readonly minimum: number; readonly maximum: number } };

/** Option parsers: they throw, and main turns the error into bad usage. Above 0 (exclusive), up to 3600. */
export const positiveSeconds: RangedParser = Object.assign(
  (value: string): number => {
    const seconds = Number(value);
    if (!value.trim() || !Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
      throw new UsageError('--timeout must be a number of seconds between 0 and 3600, e.g. 30');
    }
    return seconds;
  },
  { range: { minimum: 0, maximum: 3600 } },
);

export function wholeNumber(flag: string, min: number, max: number): RangedParser {
  const parse = (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
    return n;
  };
  return Object.assign(parse, { range: { minimum: min, maximum: max } });
}
