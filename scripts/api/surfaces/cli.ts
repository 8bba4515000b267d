import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Argument, Command, Option } from 'commander';
import ts from 'typescript';
import { commandPath } from '../../../cli/command-defaults.ts';
import { item, oneLine, report, sortedList } from '../item-list.ts';
import type { ApiItem, ExtractOptions, SurfaceExtractor } from '../model.ts';
import { kept, sourcesDigest } from '../kept-reads.ts';
import { programOver, type TypePath, typePaths } from '../type-paths.ts';
import { acceptedValues } from '../accepted-values.ts';
import type { SurfaceSource } from '../../../surfaces/surface.ts';

/**
 * The `pagerly` CLI's public interface, as scripts and pipelines depend on it: every command
 * (by its full path) and the order of its positional arguments, every flag and alias (whether it
 * takes a value, its default), every positional argument, the environment variables it reads
 * and what stands in for them, its exit codes and what each stands for, the exit code each kind
 * of failure gets, what the requests each command sends accept, and the keys, types and values
 * of each `--json` document. Commands, flags, defaults and arguments are read from commander's
 * own definition (cli/main.ts `buildProgram`, every command registered); the variables from
 * cli/settings.ts `ENV` and `ENV_DEFAULTS`; the exit codes from cli/exit-table.ts `EXIT`,
 * `EXIT_BY_ERROR` and `SEVERITY_ORDER`, the tables the code reads; the requests from
 * cli/operation-commands.ts and the catalog; the documents from cli/json-documents.ts, the
 * declaration `Output.result` is typed by.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The implicit help command commander adds, and the help option, as commander's help lists them. */
type HelpLister = {
  visibleCommands(command: Command): Command[];
  visibleOptions(command: Command): Option[];
};

/** The range a numeric flag's parser accepts (cli/settings.ts `RangedParser`), if it says one. */
function rangeOf(option: Option): { minimum?: number; maximum?: number } {
  const parser = (option as unknown as { parseArg?: { range?: { minimum: number; maximum: number } } }).parseArg;
  return parser?.range ? { minimum: parser.range.minimum, maximum: parser.range.maximum } : {};
}

function flagItems(prefix: string, option: Option, hidden: boolean, global: boolean): ApiItem[] {
  const takesValue = option.required || option.optional;
  const facts = {
    takesValue,
    // A value that may be left out (`--x [value]`), as opposed to one that must follow.
    valueOptional: option.optional ? true : undefined,
    required: option.mandatory ? true : undefined,
    choices: sortedList(option.argChoices),
    default: option.defaultValue === undefined ? undefined : String(option.defaultValue),
    list: option.variadic ? true : undefined,
    ...rangeOf(option),
    hidden: hidden ? true : undefined,
    global: global ? true : undefined,
    description: oneLine(option.description),
  };
  const items: ApiItem[] = [];
  const long = option.long;
  if (long) items.push(item(`${prefix}flag/${long}`, 'flag', facts));
  // An alias is its own item: a script that says `-t` breaks when it goes, whatever the long name does.
  if (option.short) items.push(item(`${prefix}flag/${option.short}`, 'flag', { takesValue, aliasOf: long, hidden: facts.hidden, global: facts.global }));
  return items;
}

function argumentItems(prefix: string, args: readonly Argument[]): ApiItem[] {
  return args.map((argument, at) =>
    // By position: a script passes arguments by place. The name of each is wording here; their
    // order is the command's `positionals`, where one that moves is seen.
    item(`${prefix}argument/${at + 1}`, 'parameter', {
      label: argument.name(),
      required: argument.required,
      list: argument.variadic ? true : undefined,
      choices: sortedList(argument.argChoices),
      default: argument.defaultValue === undefined ? undefined : String(argument.defaultValue),
      description: oneLine(argument.description),
    }),
  );
}

/** Commands, flags and arguments of a commander program, every command included. */
export function commandItems(program: Command): ApiItem[] {
  const help = program.createHelp() as unknown as HelpLister;
  const helpFlags = new Set(
    help
      .visibleOptions(program)
      .filter((option) => !(program.options as readonly Option[]).includes(option))
      .map((option) => option.long ?? ''),
  );
  const items: ApiItem[] = [];
  for (const option of help.visibleOptions(program)) items.push(...flagItems('', option, false, true));
  for (const option of program.options as readonly Option[]) {
    if (option.hidden) items.push(...flagItems('', option, true, true));
  }
  const visit = (command: Command) => {
    const shown = new Set(command.createHelp().visibleCommands(command));
    const children = [...command.commands, ...[...shown].filter((child) => !command.commands.includes(child))];
    for (const child of children) {
      const path = command === program ? child.name() : `${commandPath(command)} ${child.name()}`;
      const prefix = `command/${path}/`;
      const positionals = child.registeredArguments.map((argument) => argument.name());
      items.push(
        item(`command/${path}`, 'command', {
          hidden: shown.has(child) ? undefined : true,
          positionals: positionals.length ? positionals : undefined,
          description: oneLine(child.description()),
        }),
      );
      for (const alias of child.aliases())
        items.push(item(`command/${command === program ? '' : `${commandPath(command)} `}${alias}`, 'command', { aliasOf: path }));
      const childHelp = child.createHelp() as unknown as HelpLister;
      // The help flag is on every command alike: reported once, with the global flags.
      const visible = childHelp.visibleOptions(child).filter((option) => !helpFlags.has(option.long ?? ''));
      const own = [...(child.options as readonly Option[]), ...visible.filter((option) => !(child.options as readonly Option[]).includes(option))];
      for (const option of own) items.push(...flagItems(prefix, option, !visible.includes(option), false));
      items.push(...argumentItems(prefix, child.registeredArguments));
      visit(child);
    }
  };
  visit(program);
  return items;
}

/**
 * A global flag's default as one command sets it (cli/command-defaults.ts, which that command
 * reads): the flag as the command takes it, with that default.
 */
export function commandDefaultItems(program: Command, defaults: Readonly<Record<string, Readonly<Record<string, number | string>>>>): ApiItem[] {
  return Object.entries(defaults).flatMap(([path, flags]) =>
    Object.entries(flags).flatMap(([name, value]) => {
      const option = (program.options as readonly Option[]).find((candidate) => candidate.attributeName() === name);
      if (!option?.long) throw new Error(`cli/command-defaults.ts: "${path}" sets the default of ${name}, which is no global flag`);
      const [flag] = flagItems(`command/${path}/`, option, false, true);
      return [item(flag!.id, 'flag', { ...flag!.facts, default: String(value) })];
    }),
  );
}

/** The facts of a document's key in a report. */
const keyFacts = (entry: TypePath) => ({ type: entry.type, required: entry.required, choices: entry.choices, list: entry.type === 'array' ? true : undefined });

/**
 * The `--json` documents' keys, kept by a digest of what they are read from (kept-reads.ts):
 * the declarations and what they import, how they are read (this file, type-paths.ts), the
 * compiler options and the packages.
 */
export function keptDocumentItems(options: ExtractOptions = {}): Promise<ApiItem[]> {
  const file = fileURLToPath(new URL('../../../cli/json-documents.ts', import.meta.url));
  const reader = fileURLToPath(new URL('../type-paths.ts', import.meta.url));
  const digest = sourcesDigest(root, [file, reader], [readFileSync(`${root}tsconfig.json`, 'utf8'), readFileSync(fileURLToPath(import.meta.url), 'utf8')]);
  return kept(options, 'cli-documents', digest, () => documentItems(file));
}

/** The `--json` documents' keys, read from cli/json-documents.ts with the type checker. */
export function documentItems(file = fileURLToPath(new URL('../../../cli/json-documents.ts', import.meta.url))): ApiItem[] {
  const program = programOver([file], `${root}tsconfig.json`);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  const module = checker.getSymbolAtLocation(source);
  const exported = module ? checker.getExportsOfModule(module) : [];
  const declared = (name: string): ts.Type => {
    const symbol = exported.find((s) => s.getName() === name);
    if (!symbol) throw new Error(`cli/json-documents.ts declares no ${name}`);
    return checker.getDeclaredTypeOfSymbol(symbol);
  };
  const items: ApiItem[] = [];
  const perCommand = (name: string, suffix: string) => {
    for (const property of checker.getPropertiesOfType(declared(name))) {
      const command = property.getName();
      const description = oneLine(ts.displayPartsToString(property.getDocumentationComment(checker)));
      for (const entry of typePaths(program, checker.getTypeOfSymbol(property))) {
        const id = `command/${command}/${suffix}${entry.path ? `/${entry.path}` : ''}`;
        items.push(item(id, 'output', { ...keyFacts(entry), description: entry.path ? undefined : description }));
      }
    }
  };
  perCommand('JsonDocuments', 'json');
  perCommand('JsonLines', 'json-line');
  // A command with error codes of its own has its own error document, listed with it.
  perCommand('JsonCommandErrorDocuments', 'json-error');
  // The error document of every other command: one set of items.
  for (const entry of typePaths(program, declared('JsonErrorDocument'))) {
    items.push(item(entry.path ? `json-error/${entry.path}` : 'json-error', 'output', keyFacts(entry)));
  }
  return items;
}

/** The exit codes by name (cli/exit-table.ts `EXIT`), each with its help line. */
export function exitCodeItems(exit: Readonly<Record<string, number>>, table: readonly { code: number; meaning: string }[]): ApiItem[] {
  const meanings = new Map<number, string>(table.map(({ code, meaning }) => [code, meaning]));
  return Object.entries(exit).map(([name, code]) => item(`exit-code/${code}`, 'exit-code', { meaning: name, description: oneLine(meanings.get(code)) }));
}

/**
 * The exit code each kind of failure gets (cli/exit-table.ts `EXIT_BY_ERROR`, which
 * `exitCodeFor` reads), by the `code` `--json` prints: `exitCode`, and `exitCodeIf…` for each
 * case that gets another; as numbers, which pipelines branch on. And the order in which the
 * most severe failure of several decides (`SEVERITY_ORDER`).
 */
export function errorExitItems(exit: Readonly<Record<string, number>>, byError: Readonly<Record<string, object>>, severity: readonly string[]): ApiItem[] {
  const number = (name: string) => (Object.hasOwn(exit, name) ? exit[name]! : name);
  const factName = (when: string) => (when === 'exit' ? 'exitCode' : `exitCode${when[0]!.toUpperCase()}${when.slice(1)}`);
  const items = Object.entries(byError).map(([code, rule]) =>
    item(`error/${code}`, 'error', Object.fromEntries(Object.entries(rule as Record<string, string>).map(([when, name]) => [factName(when), number(name)]))),
  );
  return [...items, item('exit-code-order', 'order', { order: severity.map((name) => String(number(name))) })];
}

/** The environment variables (cli/settings.ts `ENV`), each with what it does and what stands in when it is not set. */
export function envItems(
  env: Readonly<Record<string, string>>,
  uses: Readonly<Record<string, string>>,
  defaults: Readonly<Partial<Record<string, string>>> = {},
): ApiItem[] {
  return Object.entries(env).map(([key, name]) => item(`env/${name}`, 'env', { default: defaults[key], description: uses[key] }));
}

/**
 * What the request each command sends accepts (its endpoint's schema, which the shared client
 * checks before sending): a value the schema stops taking fails the scripts that pass it, by
 * whichever flag or argument they pass it. Commands are tied to operations by
 * cli/operation-commands.ts.
 */
export function requestItems(commands: Readonly<Record<string, readonly string[]>>, source: SurfaceSource): ApiItem[] {
  const items = new Map<string, ApiItem>();
  for (const operation of source.operations) {
    if (!('endpoint' in operation)) continue;
    // The command line is written against the endpoint, not the operation's fields: every key of its input.
    for (const path of commands[operation.id] ?? []) {
      for (const [key, accepted] of acceptedValues(source.endpoints[operation.endpoint])) {
        items.set(`command/${path}/request/${key}`, item(`command/${path}/request/${key}`, 'request-property', accepted));
      }
    }
  }
  return [...items.values()];
}

export const extractor: SurfaceExtractor = {
  surface: 'cli',
  async extract(options = {}) {
    // One after another: jest's ES module loader can fail on parallel imports that share modules.
    const { buildProgram, COMMAND_NAMES } = await import('../../../cli/main.ts');
    const { Output } = await import('../../../cli/output.ts');
    const { ENV, ENV_DEFAULTS, ENV_USES } = await import('../../../cli/settings.ts');
    const { EXIT, EXIT_BY_ERROR, exitCodeTable, SEVERITY_ORDER } = await import('../../../cli/exit-codes.ts');
    const { OPERATION_COMMANDS } = await import('../../../cli/operation-commands.ts');
    const { COMMAND_FLAG_DEFAULTS } = await import('../../../cli/command-defaults.ts');
    const source = {
      operations: (await import('../../../shared/operations/index.ts')).operations,
      endpoints: (await import('../../../shared/catalog/endpoints.ts')).endpoints,
    };
    // Nothing is parsed or run: the program is only built, with every command, and read.
    const silent = { write: () => true };
    const out = new Output({ stdout: silent, stderr: silent }, { json: false, secrets: [] });
    const { program } = await buildProgram({ commands: COMMAND_NAMES, env: {}, out });
    return report('cli', [
      ...commandItems(program),
      ...commandDefaultItems(program, COMMAND_FLAG_DEFAULTS),
      ...envItems(ENV, ENV_USES, ENV_DEFAULTS),
      ...exitCodeItems(EXIT, exitCodeTable),
      ...errorExitItems(EXIT, EXIT_BY_ERROR, SEVERITY_ORDER),
      ...requestItems(OPERATION_COMMANDS, source),
      ...(await keptDocumentItems(options)),
    ]);
  },
};
