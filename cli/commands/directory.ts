import { Argument, Option, type Command } from 'commander';
import { settableRoles } from '../../shared/schemas/primitives.ts';
import type { DirectoryEntry } from '../../shared/schemas/directory-entry.ts';
import { UsageError } from '../cli-errors.ts';
import type { Context } from '../context.ts';
import { findKeyOwner, isKeyOwner, ownerKnown, REVOKES_OWN_KEY } from '../../shared/directory-sync/key-owner.ts';
import { columns } from '../output.ts';
import { registerDirectoryImport } from './directory-import.ts';
import { registerDirectorySync } from './directory-sync.ts';

const ADMIN_ONLY = "Org admin only: the key must be an org admin's (else exit 4).";
const PHONE_HELP = 'in international format, e.g. +14155550123 (spaces, dots, dashes and brackets are removed)';

type Role = (typeof settableRoles)[number];

export function registerDirectory(program: Command, ctx: Context): void {
  const directory = program
    .command('directory')
    .description('the on-call directory: look up, create or replace, change phone or role, remove, sync from a file, import from another service');

  directory
    .command('get')
    .description('show the directory entry of an e-mail (exit 1 when there is none)')
    .argument('<email>', "the person's e-mail")
    .addHelpText('after', '\nWith --json: the entry, {"id", "email", "name", "phone", "role", "imageurl"}.')
    .action(async (email: string) => {
      show(ctx, 'directory get', await ctx.client().getDirectoryEntry({ email }));
    });

  directory
    .command('set')
    .description('create the entry of an e-mail, or replace its name and phone')
    .argument('<email>', "the person's e-mail: it identifies the entry")
    .requiredOption('--name <name>', 'full name (required)')
    .option('--phone <number>', `phone ${PHONE_HELP}; left out, an existing phone is cleared`)
    .addOption(new Option('--role <role>', 'left out: an existing entry keeps its role, a new one is a user').choices(settableRoles))
    .addHelpText('after', `\n${ADMIN_ONLY} The owner's entry cannot be replaced (exit 4).`)
    .action(async (email: string, options: { name: string; phone?: string; role?: Role }) => {
      const entry = await ctx.client().upsertDirectoryEntry({
        email,
        name: options.name,
        ...(options.phone === undefined ? {} : { phone: options.phone }),
        ...(options.role === undefined ? {} : { role: options.role }),
      });
      ctx.out.note(`Saved the directory entry of ${entry.email ?? email}.`);
      show(ctx, 'directory set', entry);
    });

  directory
    .command('phone')
    .description('change the phone number of an entry')
    .argument('<email>', "the entry's e-mail")
    .argument('<phone>', PHONE_HELP)
    .action(async (email: string, phone: string) => {
      const entry = await ctx.client().updateDirectoryPhone({ email, phone });
      ctx.out.note(`Changed the phone number of ${entry.email ?? email}.`);
      show(ctx, 'directory phone', entry);
    });

  directory
    .command('role')
    .description('make a person an org admin or a user')
    .argument('<email>', "the entry's e-mail")
    .addArgument(new Argument('<role>', 'the new role').choices(settableRoles))
    .addHelpText('after', `\n${ADMIN_ONLY} The owner's role cannot be changed (exit 4).`)
    .action(async (email: string, role: Role) => {
      const entry = await ctx.client().changeDirectoryRole({ email, role });
      ctx.out.note(`Changed the role of ${entry.email ?? email}.`);
      show(ctx, 'directory role', entry);
    });

  directory
    .command('remove')
    .description('remove an entry: the person leaves every rotation and their API keys stop working')
    .argument('<email>', "the entry's e-mail")
    .option('--force', 'remove it even when it is the entry of the person this API key acts as (which revokes the key)')
    .addHelpText(
      'after',
      `\n${ADMIN_ONLY} The owner cannot be removed (exit 4). No entry for the e-mail: exit 1.\nThe entry of the person the API key acts as is removed only with --force (else exit 2,\nnothing removed): removing it revokes the key this command runs with.\nWith --json: {"email", "removed": true}.`,
    )
    .action(async (email: string, options: { force?: boolean }) => {
      const client = ctx.client();
      if (!options.force) {
        const owner = await findKeyOwner(client);
        if (!ownerKnown(owner)) {
          throw new UsageError(
            `Not removing ${email}: the key check did not say whose key this is, so it could be the entry of the person this key acts as (removing it would revoke the key). Add --force to remove it anyway.`,
          );
        }
        if (isKeyOwner(owner, { email })) {
          throw new UsageError(
            `Not removing ${email}: ${REVOKES_OWN_KEY}, so this and every other script or connection using it would stop working. Add --force to remove it anyway.`,
          );
        }
      }
      const removal = await client.removeDirectoryEntry({ email });
      ctx.out.result('directory remove', removal, () => `Removed ${removal.email ?? email} from the directory.`);
    });

  registerDirectorySync(directory, ctx);
  registerDirectoryImport(directory, ctx);
}

function show(ctx: Context, command: 'directory get' | 'directory set' | 'directory phone' | 'directory role', entry: DirectoryEntry): void {
  ctx.out.result(command, entry, () => describeEntry(entry));
}

export function describeEntry(entry: DirectoryEntry): string[] {
  const rows: [string, string][] = [
    ['email', entry.email ?? ''],
    ['phone', entry.phone ?? '(none)'],
    ['role', entry.role ?? '(unknown)'],
    ['id', entry.id ?? ''],
  ];
  return [
    entry.name ?? entry.email ?? '(no name)',
    ...columns(
      rows.filter(([, value]) => value !== ''),
      { indent: '  ' },
    ),
  ];
}
