import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { keyOwner } from '../../shared/operations/key-owner.ts';
import { columns } from '../output.ts';

/** "Grace Hopper (Acme)": whose key it is, never the key. */
export function keyOwnerLabel(check: Record<string, unknown>): string {
  const { label, organization } = keyOwner(check);
  return label ?? (organization ? `an API key of ${organization}` : 'a valid API key (the service did not say whose)');
}

export function registerCheck(program: Command, ctx: Context): void {
  program
    .command('check')
    .description('check the API key and print whose it is, e.g. "Grace Hopper (Acme)"')
    .addHelpText('after', '\nWith --json: the service\'s answer, {"valid", "user": {id, name, email, role}, "organization": {id, name}}.')
    .action(async () => {
      const check = await ctx.client().checkApiKey();
      ctx.out.result(check, () => {
        const user = (check.user ?? {}) as Record<string, unknown>;
        const details = [
          ['e-mail', user.email],
          ['role', user.role],
        ].filter((pair): pair is [string, string] => typeof pair[1] === 'string' && pair[1] !== '');
        return [keyOwnerLabel(check), ...columns(details, { indent: '  ' })];
      });
    });
}
