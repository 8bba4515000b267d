import * as core from '@actions/core';
import { isPagerlyError } from '../../shared/errors.ts';
import { debugWanted, type Trace } from '../../shared/http/trace.ts';
import { createClient } from '../../shared/client.ts';
import { actionResult } from '../../shared/operations/action-result.ts';
import { endpointInput } from '../../shared/operations/endpoint-input.ts';
import { operations } from '../../shared/operations/index.ts';
import { redact, secretForms } from '../../shared/redact.ts';
import { showInvisibleControls } from '../../shared/visible-controls.ts';
import { fetchTransport } from '../../shared/transports/fetch-transport.ts';
import type { SurfaceSource } from '../../surfaces/surface.ts';
import { actionInputs, actionOperations } from '../inputs.ts';
import { API_KEY_INPUT, BASE_URL_INPUT, ID_OUTPUT, INCIDENT_OUTPUT, UPDATE_WHEN_GIVEN } from '../names.ts';

/** What the Action uses of @actions/core: the real toolkit on a runner, a recorder in tests. */
export type ActionCore = Pick<typeof core, 'getInput' | 'setSecret' | 'setOutput' | 'setFailed' | 'info' | 'warning'> & Partial<Pick<typeof core, 'debug'>>;

/**
 * Every form of the key the runner must mask: as given and trimmed (the client sends it
 * trimmed), each in every encoding the shared redaction knows (JSON-escaped, URL- and
 * form-encoded), so no text the Action prints can show it in one of those.
 */
export function keyForms(apiKey: string): string[] {
  return [...new Set([apiKey, apiKey.trim()].filter((key) => key !== '').flatMap(secretForms))];
}

/**
 * One run of the step: mask the key before reading anything else, then create the incident
 * (no `id`) or update it (with one) as every surface runs these operations, set the outputs,
 * or fail the step with the service's reason, the key taken out.
 */
export async function runAction(io: ActionCore, source: Pick<SurfaceSource, 'operations'> = { operations }): Promise<void> {
  const apiKey = io.getInput(API_KEY_INPUT);
  for (const form of keyForms(apiKey)) io.setSecret(form);
  // An empty api-key is a workflow's mistake, most often a secret that is not defined (or not
  // given to a run from a fork): say which input and how to fill it, and send nothing.
  if (apiKey.trim() === '') {
    io.setFailed(
      `No API key: the \`${API_KEY_INPUT}\` input is empty. Set it from a repository or organization secret ` +
        `(\`${API_KEY_INPUT}: \${{ secrets.PAGERLY_API_KEY }}\`); a secret that is not defined, or one a run from a fork ` +
        'is not given, reads as empty. An org admin generates keys in the Pagerly dashboard (API keys).',
    );
    return;
  }
  try {
    const { create, update } = actionOperations(source);
    const given: Record<string, string> = {};
    for (const input of actionInputs(source)) if (input.field) given[input.field] = io.getInput(input.name);
    const operation = given[UPDATE_WHEN_GIVEN]?.trim() ? update : create;
    // fetch, as the CLI sends: a self-hosted runner behind a proxy is served through
    // HTTPS_PROXY/HTTP_PROXY/NO_PROXY, and the bundle carries no got.
    const client = createClient({
      apiKey,
      baseUrl: io.getInput(BASE_URL_INPUT) || undefined,
      transport: fetchTransport({ proxyEnv: process.env, trace: actionTrace(io, process.env, apiKey) }),
    });
    const result = (await actionResult(operation, endpointInput(operation.inputFields, given), client)) as Record<string, unknown>;
    const id = String(result['id'] ?? given[UPDATE_WHEN_GIVEN] ?? '');
    io.setOutput(ID_OUTPUT, id);
    io.setOutput(INCIDENT_OUTPUT, JSON.stringify(result));
    const status = typeof result['status'] === 'string' ? ` (${oneLine(result['status'])})` : '';
    io.info(redact(`${operation === update ? 'Updated' : 'Created'} incident ${oneLine(id)}${status}.`, [apiKey, apiKey.trim()]));
    // A 2xx is done whatever its body (assumption `created-id`): where no id could be read the
    // step still passes, and the note is an annotation on the run rather than a failure.
    // The note may be the service's own: shown, never applied, as every line of the log.
    if (typeof result['note'] === 'string' && result['note'] !== '') io.warning(showInvisibleControls(redact(result['note'], [apiKey, apiKey.trim()])));
  } catch (error) {
    // A shared error's message is the service's reason, already without the key; anything else
    // is redacted here, as it came from a library that never saw the rule. Its controls are
    // shown (warning and error escape only line breaks, which a bidi override outlives).
    const text = isPagerlyError(error) ? error.message : `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    io.setFailed(showInvisibleControls(redact(text, [apiKey, apiKey.trim()])));
  }
}

/**
 * Service text as one inert line of the step's log. The runner reads every line printed for a
 * workflow command (`::add-mask::`, `::stop-commands::`, `::error::`), and core.info, unlike
 * warning and error, does not escape its data: a newline in an incident's id or status would
 * start a line the runner obeys. Controls, bidi and zero-width characters and line separators
 * are shown as escapes instead (`\n`, `\u202e`: the rule of every surface,
 * `shared/visible-controls.ts`), and the text is cut to a length a log line needs.
 */
export function oneLine(text: string, max = 200): string {
  const shown = showInvisibleControls(text);
  return shown.length > max ? `${shown.slice(0, max)}…` : shown;
}

/** The entry GitHub runs (through index.ts) and `@github/local-action` calls. */
export const run = (): Promise<void> => runAction(core);

/**
 * The request trace in a step's log, as Actions show diagnostics: with PAGERLY_DEBUG=1 in the
 * step's `env`, each entry as plain log lines (core.info), always shown; else, when the run is
 * re-run with debug logging (the runner sets RUNNER_DEBUG=1), as `::debug::` lines (core.debug),
 * which the runner shows only then. Lines start with `*`, `>` or `<`, so none can be read as a
 * workflow command, and the key is taken out here as well as masked by the runner.
 */
export function actionTrace(io: ActionCore, env: Readonly<Record<string, string | undefined>>, apiKey: string): Trace | undefined {
  const secrets = [apiKey, apiKey.trim()];
  if (debugWanted(env)) return (entry) => io.info(redact(entry, secrets));
  const debug = io.debug;
  if (env['RUNNER_DEBUG'] === '1' && debug) return (entry) => debug(redact(entry, secrets));
  return undefined;
}
