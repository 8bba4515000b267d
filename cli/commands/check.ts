import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { type BaseSettingNames, proveConnection } from '../../shared/operations/connection-check.ts';
import { keyOwner } from '../../shared/operations/key-owner.ts';
import { columns } from '../output.ts';
import { ENV } from '../settings.ts';
import type { ApiKeyCheck } from '../../shared/schemas/api-key-check.ts';

/** The base settings as a user of the CLI gives them, for the connection check's messages. */
export const CLI_BASE_SETTINGS: BaseSettingNames = {
  api: `--base-url (or ${ENV.baseUrl})`,
  rotations: `--rotations-base-url (or ${ENV.rotationsBaseUrl})`,
};

/** "Grace Hopper (Acme)": whose key it is, never the key. */
export function keyOwnerLabel(check: Record<string, unknown>): string {
  const { label, organization } = keyOwner(check);
  return label ?? (organization ? `an API key of ${organization}` : 'a valid API key (the service did not say whose)');
}

export function registerCheck(program: Command, ctx: Context): void {
  program
    .command('check')
    .description('check the API key and both bases, and print whose key it is, e.g. "Grace Hopper (Acme)"')
    .addHelpText('after', '\nWith --json: the service\'s answer, {"valid", "user": {id, name, email, role}, "organization": {id, name}}.')
    .action(async () => {
      // The key check at the API base, then the team list at the rotations base: a wrong base
      // fails here, naming the flag to fix, rather than at the first team lookup.
      const check = await proveConnection(ctx.client(), ctx.settings(), CLI_BASE_SETTINGS);
      // proveConnection resolves to the key check's answer, as the client read it.
      ctx.out.result('check', check as ApiKeyCheck, () => {
        const user = (check.user ?? {}) as Record<string, unknown>;
        const details = [
          ['e-mail', user.email],
          ['role', user.role],
        ].filter((pair): pair is [string, string] => typeof pair[1] === 'string' && pair[1] !== '');
        return [keyOwnerLabel(check), ...columns(details, { indent: '  ' })];
      });
    });
}
