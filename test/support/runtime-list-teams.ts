// Run by Bun or Deno (test/shared/proxy-refusal-runtimes.test.ts): the typed client on the
// runtime's own fetch lists the teams at the base URL given as the first argument, and prints
// what came of it as one JSON line: the error's kind and proxy fields, or "ok". No trace: nothing
// reads PAGERLY_DEBUG, so Deno may run it without --allow-env.
import { isPagerlyError, ProxyError } from '../../shared/errors.ts';
import { createFetchClient } from '../../shared/fetch-client.ts';

const runtime = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
const baseUrl = runtime.Deno ? runtime.Deno.args[0] : runtime.process?.argv[2];
try {
  await createFetchClient({ apiKey: 'pgr_runtime-proxy-key-0123456789', baseUrl, retries: 2, backoffMs: 1, trace: false }).listTeams();
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  const proxy = error instanceof ProxyError ? { variable: error.proxyVariable, host: error.proxyHost, status: error.proxyStatus } : undefined;
  console.log(
    JSON.stringify({
      kind: isPagerlyError(error) ? error.code : 'unexpected',
      retryable: isPagerlyError(error) ? error.retryable : undefined,
      mayHaveApplied: isPagerlyError(error) ? error.mayHaveApplied : undefined,
      proxy,
      message: (error as Error).message,
    }),
  );
}
