/**
 * Global flags whose default one command sets otherwise, by the flag's option name: the command
 * reads its default here, and the CLI's API report lists it as that command's default, since a
 * script that leaves the flag out gets it.
 */
export const COMMAND_FLAG_DEFAULTS = {
  // An import makes thousands of requests to an API that rate-limits, so it waits longer than a
  // single command does (1 s, doubling; or as long as the source asks).
  'directory import': { retries: 6 },
} as const satisfies Readonly<Record<string, Readonly<Record<string, number | string>>>>;
