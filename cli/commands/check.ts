import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { columns } from '../output.ts';

/** "Grace Hopper (Acme)": whose key it is, never the key. */
export function keyOwnerLabel(check: Record<string, unknown>): string {
  const user = (check.user ?? {}) as Record<string, unknown>;
  const organization = (check.organization ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const who = text(user.name) ?? text(user.email);
  const org = text(organization.name);
  if (who) return org ? `${who} (${org})` : who;
  return org ? `an API key of ${org}` : 'a valid API key (the service did not say whose)';
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
