import { AuthenticationError, InvalidInputError } from '../errors.ts';
import { HEADER_SAFE } from '../http/request.ts';
import { checkedBase } from '../settings.ts';
import type { Source } from './sources.ts';

export type SourceEnv = Readonly<Record<string, string | undefined>>;

/** The source's key from its variable, as it is sent (trimmed), or the AuthenticationError naming the variable. */
export function sourceKey(source: Source, env: SourceEnv): string {
  const key = env[source.keyVariable]?.trim();
  if (!key)
    throw new AuthenticationError(
      `${source.keyVariable} is not set: the import reads ${source.name} with its key. ${source.keyHelp} Nothing was read or written.`,
    );
  // A key a header cannot carry would be refused by Node after an error had been built around it; its value is never repeated.
  if (!HEADER_SAFE.test(key)) {
    throw new AuthenticationError(
      `${source.keyVariable} holds spaces or characters a ${source.name} key cannot have: copy the key again. Nothing was read or written.`,
    );
  }
  return key;
}

/** The source's API base from its variable, or its default; an InvalidInputError (bad usage) naming the variable. */
export function sourceBase(source: Source, env: SourceEnv): string {
  const given = env[source.urlVariable]?.trim();
  const value = given || source.defaultUrl;
  if (!value) {
    throw new InvalidInputError(
      `${source.urlVariable} is not set: it is the ${source.name} API URL of your stack (OnCall → Settings), e.g. ${source.urlExample}. Nothing was read or written.`,
      [{ field: source.urlVariable, problem: 'is required' }],
      'input',
    );
  }
  const base = checkedBase(value, source.urlVariable, source.urlExample);
  return source.apiPath && base.endsWith(source.apiPath) ? base.slice(0, -source.apiPath.length) : base;
}
