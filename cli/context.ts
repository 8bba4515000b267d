import type { Command } from 'commander';
import type { ClientSummaries, PagerlyClient } from '../shared/client.ts';
import { AuthenticationError } from '../shared/errors.ts';
import type { createFetchClient } from '../shared/fetch-client.ts';
import { debugWanted, markedEntry, type Trace } from '../shared/http/trace.ts';
import type { Output } from './output.ts';
import { withCommandDefaults } from './command-defaults.ts';
import { retryNoticeText } from './retry-notice.ts';
import { ENV, resolveSettings, type CliSettings, type Env, type GlobalOptions } from './settings.ts';

/** What every command gets: output, the settings, and the typed client made on first use. */
export interface Context {
  readonly out: Output;
  /** The environment the command was given (never the process's own environment behind a test's back). */
  readonly env: Env;
  readonly version: string;
  /** The global flags and environment; with `command`, that command's own defaults (command-defaults.ts) where they were left out. */
  settings(command?: Command): CliSettings;
  /** Throws an AuthenticationError (exit 3) when no key was given. */
  /**
   * The typed client; `summaries` words its errors by the command's own operation (shared/operations/summaries.ts);
   * `signal` aborts its requests in flight (a watch cut at its shutdown deadline).
   */
  client(summaries?: ClientSummaries, signal?: AbortSignal): PagerlyClient;
  /** Aborted on Ctrl-C (SIGINT); never aborted when the caller gave none. */
  readonly signal: AbortSignal;
  /**
   * A command that stops cleanly on `signal` (a sync: it finishes the requests in flight and
   * reports) says so; any other command is abandoned at once on Ctrl-C, with exit 130.
   */
  stopsCleanlyOnInterrupt(): void;
  readonly stopsCleanly: boolean;
  /** The request trace on stderr with `--debug` or PAGERLY_DEBUG=1, else none; stdout (a --json document, MCP's JSON-RPC) never has it. */
  trace(): Trace | undefined;
}

/**
 * `clientFactory`: the typed client's maker, which main.ts loads only when a command runs (it
 * brings the catalog and its schemas, which `pagerly --version` has no use for).
 */
export function createContext(options: {
  program: Command;
  env: Env;
  out: Output;
  version: string;
  signal?: AbortSignal | undefined;
  clientFactory?: typeof createFetchClient | undefined;
}): Context {
  const { program, env, out, version, clientFactory } = options;
  let client: PagerlyClient | undefined;
  let stopsCleanly = false;
  const settings = (command?: Command) => {
    const resolved = resolveSettings(program.opts<GlobalOptions>(), env);
    return command ? withCommandDefaults(resolved, command) : resolved;
  };
  // Through the output's stderr, which takes the key out once more (as given on the command line or in the environment);
  // each line marked, so that a --json error document on the same stream is told apart by a script.
  const trace = (): Trace | undefined => (program.opts<GlobalOptions>().debug || debugWanted(env) ? (entry) => out.writeErr(markedEntry(entry)) : undefined);
  return {
    out,
    env,
    version,
    settings,
    trace,
    signal: options.signal ?? new AbortController().signal,
    stopsCleanlyOnInterrupt() {
      stopsCleanly = true;
    },
    get stopsCleanly() {
      return stopsCleanly;
    },
    client(summaries?: ClientSummaries, signal?: AbortSignal) {
      if (client && !summaries && !signal) return client;
      const { apiKey, baseUrl, rotationsBaseUrl, timeoutMs, retries } = settings();
      if (!apiKey) {
        throw new AuthenticationError(
          `No API key was given: set ${ENV.apiKey} (or pass --api-key KEY; a command line can be seen by other users of the machine). An org admin generates keys in the dashboard (API keys); a key acts as the person who generated it.`,
        );
      }
      if (!clientFactory) throw new Error('no command was loaded that makes requests');
      const made = clientFactory({
        apiKey,
        baseUrl,
        rotationsBaseUrl,
        userAgent: `pagerly-cli/${version}`,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(retries === undefined ? {} : { retries }),
        // A note on stderr for a person; none with --json, where stderr holds only the error document.
        onRetry: (retry) => out.note(retryNoticeText(retry)),
        // HTTPS_PROXY, HTTP_PROXY and NO_PROXY from the environment the command was given.
        proxyEnv: env,
        // Only as the command line and its environment say: never process.env's PAGERLY_DEBUG behind a test's back.
        trace: trace() ?? false,
        summaries,
        ...(signal ? { signal } : {}),
      });
      if (!summaries && !signal) client = made;
      return made;
    },
  };
}
