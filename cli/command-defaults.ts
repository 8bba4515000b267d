import type { Command } from 'commander';
import type { CliSettings } from './settings.ts';

/**
 * Global flags whose default one command sets otherwise, by the flag's option name: the
 * command's settings take it (withCommandDefaults), and the CLI's API report lists it as that
 * command's default, since a script that leaves the flag out gets it.
 */
export const COMMAND_FLAG_DEFAULTS = {
  // An import makes thousands of requests to an API that rate-limits, so it waits longer than a
  // single command does (1 s, doubling; or as long as the source asks).
  'directory import': { retries: 6 },
} as const satisfies Readonly<Record<string, Partial<Pick<CliSettings, 'retries'>>>>;

/** A command's words after the program's name: `directory import`. */
export function commandPath(command: Command): string {
  const words: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) words.unshift(at.name());
  return words.join(' ');
}

/** `settings` with `command`'s own defaults for the flags its command line left out (each default's option name is its setting's). */
export function withCommandDefaults(settings: CliSettings, command: Command): CliSettings {
  const defaults: Partial<Pick<CliSettings, 'retries'>> | undefined = COMMAND_FLAG_DEFAULTS[commandPath(command) as keyof typeof COMMAND_FLAG_DEFAULTS];
  if (!defaults) return settings;
  const left = Object.entries(defaults).filter(([flag]) => [undefined, 'default'].includes(command.getOptionValueSourceWithGlobals(flag)));
  return { ...settings, ...Object.fromEntries(left) };
}
