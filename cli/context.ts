import type { Command } from 'commander';
import type { PagerlyClient } from '../shared/client.ts';
import { AuthenticationError } from '../shared/errors.ts';
import { createNodeClient } from '../shared/node-client.ts';
import type { Output } from './output.ts';
import { ENV, resolveSettings, type CliSettings, type Env, type GlobalOptions } from './settings.ts';

/** What every command gets: output, the settings, and the typed client made on first use. */
export interface Context {
  readonly out: Output;
  readonly version: string;
  settings(): CliSettings;
  /** Throws an AuthenticationError (exit 3) when no key was given. */
  client(): PagerlyClient;
}

export function createContext(options: { program: Command; env: Env; out: Output; version: string }): Context {
  const { program, env, out, version } = options;
  let client: PagerlyClient | undefined;
  const settings = () => resolveSettings(program.opts<GlobalOptions>(), env);
  return {
    out,
    version,
    settings,
    client() {
      if (client) return client;
      const { apiKey, baseUrl, rotationsBaseUrl, timeoutMs, retries } = settings();
      if (!apiKey) {
        throw new AuthenticationError(
          `No API key was given: set ${ENV.apiKey} (or pass --api-key KEY; a command line can be seen by other users of the machine). An org admin generates keys in the dashboard (API keys); a key acts as the person who generated it.`,
        );
      }
      client = createNodeClient({
        apiKey,
        baseUrl,
        rotationsBaseUrl,
        userAgent: `pagerly-cli/${version}`,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(retries === undefined ? {} : { retries }),
      });
      return client;
    },
  };
}
