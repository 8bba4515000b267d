import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { commandPath } from './command-defaults.ts';
import { DEBUG_ENV } from '../shared/http/trace.ts';
import { TRANSPORT_DEFAULTS } from '../shared/transports/defaults.ts';
import { InterruptedError, UsageError } from './cli-errors.ts';
import { createContext, type Context } from './context.ts';
import { wantsColour } from './colour.ts';
import { exampleHelp } from './examples.ts';
import { EXIT, exitCodeFor, exitCodeHelp, shortExitCodeHelp } from './exit-codes.ts';
import type { OutStream } from './out-stream.ts';
import { Output } from './output.ts';
import { ENV, ENV_DEFAULTS, environmentHelp, positiveSeconds, secretsIn, wholeNumber, type Env } from './settings.ts';
import { retireCommands, retiringCommands } from './operation-commands.ts';
import type { Operation } from '../shared/operations/types.ts';

export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  /** Aborted on Ctrl-C: bin/pagerly.js aborts it on SIGINT, tests abort it mid-run. */
  signal?: AbortSignal;
}

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const OVERVIEW = `
${environmentHelp()}

${exitCodeHelp()}

Examples:
  export ${ENV.apiKey}=...        # an org admin's key, for the directory
  pagerly check                           # whose key is it?
  pagerly on-call --team Payments
  id=$(pagerly incident create --title "Deploy failed" --severity P2)
  pagerly directory sync people.csv --dry-run`;

type Register = (program: Command, ctx: Context) => void;

/**
 * Each command's module, loaded only when that command runs (or help lists them all): the MCP
 * server, the CSV reader of a sync and the catalog's schemas are not loaded for `--version` or
 * for another command. In the order help lists them.
 */
const COMMANDS = {
  check: async () => (await import('./commands/check.ts')).registerCheck,
  teams: async () => (await import('./commands/teams.ts')).registerTeams,
  'on-call': async () => (await import('./commands/on-call.ts')).registerOnCall,
  incident: async () => (await import('./commands/incident.ts')).registerIncident,
  directory: async () => (await import('./commands/directory.ts')).registerDirectory,
  mcp: async () => (await import('./commands/mcp.ts')).registerMcp,
} satisfies Record<string, () => Promise<Register>>;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

/** The global options that take a value: the word after them is not the command. */
const VALUE_OPTIONS = new Set(['--api-key', '--base-url', '--rotations-base-url', '--timeout', '--retries']);

/**
 * The commands to register for this command line: the one it names; none for `--version`
 * alone; all of them for help, for no command and for a word that is no command (commander
 * then lists them, or suggests the nearest).
 */
export function commandsFor(argv: readonly string[]): CommandName[] {
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at]!;
    if (word === '--') break;
    if (VALUE_OPTIONS.has(word)) {
      at++;
      continue;
    }
    if (word.startsWith('-')) continue;
    return (COMMAND_NAMES as string[]).includes(word) ? [word as CommandName] : COMMAND_NAMES;
  }
  const versionOnly = argv.some((word) => word === '-V' || word === '--version') && !argv.some((word) => word === '-h' || word === '--help');
  return versionOnly ? [] : COMMAND_NAMES;
}

/**
 * The command line as commander knows it, with these commands registered: what `main` parses,
 * and what the CLI's public-interface report (scripts/api/surfaces/cli.ts) walks, with every
 * command, so commands, flags and arguments are read from the one definition.
 */
export async function buildProgram(options: {
  commands: readonly CommandName[];
  env: Env;
  out: Output;
  signal?: AbortSignal | undefined;
  /** With --json, commander's usage error goes here (it becomes the JSON error document) instead of stderr. */
  onUsageMessage?: (text: string) => void;
  /** The operations whose retiring hides commands; the shipped ones unless a test gives others. */
  operations?: readonly Operation[] | undefined;
}): Promise<{ program: Command; ctx: Context }> {
  const { env, out } = options;
  const json = out.json;
  const program = new Command('pagerly')
    .description('Pagerly from the command line: who is on call, incidents, the on-call directory.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .option('--api-key <key>', `API key (default: $${ENV.apiKey})`)
    .option('--base-url <url>', `API base (default: $${ENV.baseUrl}, else ${ENV_DEFAULTS.baseUrl})`)
    .option('--rotations-base-url <url>', `base of teams and on-call lookups (default: $${ENV.rotationsBaseUrl}, else the API base + /pagerly)`)
    .option('--json', 'machine output: one JSON document on stdout; errors as JSON on stderr ({"error": {"code", "message", "retryable", "exitCode"}})')
    .addOption(new Option('--timeout <seconds>', 'time limit of each request').argParser(positiveSeconds).default(TRANSPORT_DEFAULTS.timeoutMs / 1000))
    .addOption(
      new Option('--retries <n>', 'extra attempts after a 429, 5xx or network failure, for requests safe to repeat')
        .argParser(wholeNumber('--retries', 0, 10))
        .default(TRANSPORT_DEFAULTS.retries),
    )
    .option('--debug', `trace each request on stderr: method, URL, status, time, bytes and headers, the key redacted, never bodies (or set ${DEBUG_ENV}=1)`)
    .addHelpText('after', OVERVIEW)
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError(json ? false : '(add --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => out.writeOut(text),
      writeErr: (text) => out.writeErr(text),
      outputError: (text, write) => {
        // With --json the error becomes a JSON document below; commander's text goes nowhere.
        if (json) options.onUsageMessage?.(text.replace(/^error: /, '').trim());
        else write(text);
      },
    });

  const registers = await Promise.all(options.commands.map((name) => COMMANDS[name]()));
  const clientFactory = registers.length ? (await import('../shared/fetch-client.ts')).createFetchClient : undefined;
  const ctx = createContext({ program, env, out, version, signal: options.signal, clientFactory });
  for (const register of registers) register(program, ctx);
  // The operations (and the catalog they name) load only when a command does: not for --version.
  if (registers.length)
    retireCommands(program, retiringCommands(options.operations ?? (await import('../shared/operations/index.ts')).operations), (text) => out.note(text));
  // Every command's help shows an example; a command's own ends with the exit codes, in one line.
  for (const command of allCommands(program)) {
    if (command === program) continue;
    command.addHelpText('after', exampleHelp(commandPath(command)));
    if (command.commands.length === 0) command.addHelpText('after', `\n${shortExitCodeHelp()}`);
  }
  return { program, ctx };
}

/**
 * The whole command line, in process: parses `argv` (without node and the script), runs the
 * command, and returns the exit code. Nothing here calls process.exit, so tests run it as is.
 */
export async function main(argv: readonly string[], env: Env, io: CliIo, operations?: readonly Operation[]): Promise<number> {
  const json = argv.includes('--json');
  const out = new Output(io, { json, secrets: secretsIn(argv, env), colour: wantsColour(io.stderr, env) });
  let usageMessage: string | undefined;
  const { program, ctx } = await buildProgram({
    commands: commandsFor(argv),
    env,
    out,
    signal: io.signal,
    operations,
    onUsageMessage: (text) => {
      usageMessage = text;
    },
  });

  try {
    const outcome = await Promise.race([program.parseAsync([...argv], { from: 'user' }).then(() => 'done' as const), abandonedOnInterrupt(ctx)]);
    if (outcome === 'interrupted') {
      out.error(
        new InterruptedError('interrupted (Ctrl-C) before the command finished: a request may have reached the service; check before running it again.'),
      );
      return EXIT.interrupted;
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.ok; // --help, --version
      const message = error.code === 'commander.help' ? 'no command given: see pagerly --help' : (usageMessage ?? error.message.replace(/^error: /, ''));
      if (json) out.error(new UsageError(message));
      return EXIT.usage;
    }
    out.error(error);
    return exitCodeFor(error);
  }
}

/**
 * Resolves when Ctrl-C should end the command at once: a command that stops cleanly (a
 * sync) handles the signal itself and reports, so for it this never resolves.
 */
function abandonedOnInterrupt(ctx: Context): Promise<'interrupted'> {
  return new Promise((resolve) => {
    const abandon = () => {
      if (!ctx.stopsCleanly) resolve('interrupted');
    };
    if (ctx.signal.aborted) abandon();
    else ctx.signal.addEventListener('abort', abandon, { once: true });
  });
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}
