import { Help, type Command } from 'commander';
import { retiringNote } from '../shared/operations/retiring.ts';
import type { Operation, OperationId } from '../shared/operations/types.ts';

/**
 * The commands that do an operation's job, by their path. The CLI's commands are written by hand
 * (a command line is not a form), so this map is what ties them to the shared operations: a
 * retiring operation retires its commands. `satisfies` makes a missing operation a type error;
 * `directory set` creates or replaces, so it serves two.
 */
export const OPERATION_COMMANDS = {
  listTeams: ['teams'],
  onCallChanged: ['on-call watch'],
  createIncident: ['incident create'],
  updateIncident: ['incident update'],
  createDirectoryEntry: ['directory set'],
  updateDirectoryEntry: ['directory set'],
  updateDirectoryPhone: ['directory phone'],
  changeDirectoryRole: ['directory role'],
  removeDirectoryEntry: ['directory remove'],
  getOnCallUsers: ['on-call'],
  getDirectoryEntry: ['directory get'],
} as const satisfies Record<OperationId, readonly string[]>;

/** `pagerly directory set`: how a note names the command that replaces a retiring one. */
const commandFor = (id: OperationId) => {
  const paths: readonly string[] | undefined = Object.hasOwn(OPERATION_COMMANDS, id) ? OPERATION_COMMANDS[id] : undefined;
  return paths?.[0] ? `\`pagerly ${paths[0]}\`` : id;
};

/**
 * The commands whose every operation is retiring, each with its note: a command that still
 * serves an operation in use (`directory set` while only one of its two retires) stays as it is.
 */
export function retiringCommands(operations: readonly Operation[]): Map<string, string> {
  const byPath = new Map<string, Operation[]>();
  for (const operation of operations) {
    const paths: readonly string[] = Object.hasOwn(OPERATION_COMMANDS, operation.id) ? OPERATION_COMMANDS[operation.id] : [];
    for (const path of paths) byPath.set(path, [...(byPath.get(path) ?? []), operation]);
  }
  const retiring = new Map<string, string>();
  for (const [path, served] of byPath) {
    if (served.length === 0 || !served.every((operation) => operation.retiring)) continue;
    retiring.set(path, `\`pagerly ${path}\` is ${retiringNote(served[0]!, commandFor)!.replace(/^Deprecated/, 'deprecated')}`);
  }
  return retiring;
}

/**
 * Retires commands in a registered program: each still runs (scripts call it), is left out of
 * its parent's help and command list, and says on stderr, before it runs, that it is
 * deprecated and what to use (`note`: a person's remark, none with --json).
 */
export function retireCommands(program: Command, retiring: ReadonlyMap<string, string>, note: (text: string) => void): void {
  if (retiring.size === 0) return;
  const pathOf = (command: Command) => {
    const names: string[] = [];
    for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
    return names.join(' ');
  };
  const visit = (command: Command) => {
    // commander's own way to leave a command out of help is `hidden`; set after registration,
    // it is the parent's help that decides what it lists.
    command.configureHelp({
      ...command.configureHelp(),
      visibleCommands(this: Help, cmd: Command) {
        return Help.prototype.visibleCommands.call(this, cmd).filter((sub) => !retiring.has(pathOf(sub)));
      },
    });
    for (const sub of command.commands) {
      const text = retiring.get(pathOf(sub));
      // A hook runs for the command's subcommands too (`on-call` before `on-call watch`): only its own action.
      if (text) sub.hook('preAction', (_, acting) => (acting === sub ? note(text) : undefined));
      visit(sub);
    }
  };
  visit(program);
}
