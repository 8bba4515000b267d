import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { appFromFiles } from '../../make-app/interpreter/runner/app-folder.ts';
import { makeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { INPUT, settle, type ErrorKind, type SurfaceDriver, type Target } from './driver.ts';

let app: ReturnType<typeof appFromFiles> | undefined;

/** The generated Make app through our runner, every URL of the service's origin moved to the target. */
function runner({ baseUrl, timeoutMs }: Target) {
  app ??= appFromFiles(generateMakeApp());
  return makeRunner(app, { origin: { from: DEFAULT_BASE_URL, to: baseUrl }, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

/**
 * Make's error types in the shared model's codes (the inverse of the generator's
 * response-directives.ts): the type where it says one thing, else the status Make's error
 * carries, else what the runner's own messages say (an answer the IML cannot read, no answer).
 */
function kindOf(type: string, status: number | undefined, message: string): ErrorKind {
  switch (type) {
    case 'InvalidAccessTokenError':
      return 'authentication';
    case 'InvalidConfigurationError':
      return 'permission';
    case 'RateLimitError':
      return 'rate_limited';
    case 'ConnectionError':
      if (status !== undefined && status >= 500) return 'server';
      return /within \d/.test(message) ? 'timeout' : 'network';
    case 'DataError':
      if (status !== undefined && status >= 300 && status < 400) return 'redirect';
      // The detach's one sentence for a hook already gone (404, 405, 410: webhook.ts).
      if (/nothing is left to detach/.test(message)) return 'not_found';
      if (status === undefined || status < 300) return 'invalid_response';
      if (status === 403) return 'permission';
      if (status === 404) return 'not_found';
      return 'invalid_input';
    case 'BundleValidationError':
      // A parameter that fails its validation: nothing was sent (validate-parameters.ts).
      return 'invalid_input';
    case 'RuntimeError':
      // The runner's "iterate did not give a list": a documented list answered as something else.
      if (/iterate did not give a list/.test(message)) return 'invalid_response';
      return 'request';
    default:
      return 'unknown';
  }
}

/** A MakeError by its type (one of Make's error types); anything else by its name. */
function makeError(error: unknown): { message: string; kind: ErrorKind; native: string; own: boolean } {
  const { name, type, message, status } = (error ?? {}) as { name?: string; type?: string; message?: string; status?: number };
  const own = name === 'MakeError';
  const text = String(message ?? error);
  return { kind: own ? kindOf(String(type), status, text) : 'unknown', native: String(own ? type : name), message: text, own };
}

const connection = (target: Target) => ({ apiKey: target.apiKey });

export const makeDriver: SurfaceDriver = {
  name: 'Make',
  surface: 'Make',
  read: (target) => settle(() => runner(target).rpc('listTeams', { connection: connection(target) }), makeError),
  write: (target) =>
    // The module's one bundle is the created incident, as the next module maps it.
    settle(
      async () => (await runner(target).module('createIncident', { connection: connection(target), parameters: { title: 'Disk full', severity: 'P2' } }))[0],
      makeError,
    ),
  checkKey: (target) => settle(() => runner(target).testConnection(connection(target)), makeError),
  onCall: (target) =>
    settle(() => runner(target).module('listOnCallUsers', { connection: connection(target), parameters: { teamname: INPUT.team } }), makeError),
  everyoneOnCall: (target) =>
    settle(async () => {
      const make = runner(target);
      // The team list through "Make an API call": the team dropdown offers 100 teams at most.
      const [answer] = (await make.module('makeApiCall', {
        connection: connection(target),
        parameters: { url: '/pagerly/o/zapier/allteams', method: 'GET' },
      })) as {
        body?: { name: string }[];
      }[];
      const bundles: unknown[] = [];
      for (const team of answer?.body ?? [])
        bundles.push(...(await make.module('listOnCallUsers', { connection: connection(target), parameters: { teamname: team.name } })));
      return bundles;
    }, makeError),
  directoryEntry: (target) =>
    settle(() => runner(target).module('getDirectoryEntry', { connection: connection(target), parameters: { email: target.email ?? INPUT.email } }), makeError),
  directoryWrite: (target) =>
    settle(
      async () =>
        (
          await runner(target).module('updateDirectoryPhone', {
            connection: connection(target),
            parameters: { email: target.email ?? INPUT.email, phone: INPUT.phone },
          })
        )[0],
      makeError,
    ),
  unsubscribe: (target) =>
    settle(async () => {
      await runner(target).detach('onCallChanges', { connection: connection(target), parameters: {}, webhook: { externalHookId: INPUT.hookId } });
      return { removed: true };
    }, makeError),
  redirect: {
    native: 'DataError',
    statusSaid: (status) => `[${status}]`,
    namesTargetHost: {
      gap: 'the error is an IML template over the answer (make-app/generator/response-directives.ts), and IML has no URL parser to take the host out of Location; the message says a redirect was not followed, and the status, and no more',
    },
    sameOrigin: {
      gap: 'every request carries followRedirects: false and followAllRedirects: false (make-app/generator/communication.ts): Make offers no same-origin-only rule, so no redirect is followed; the proof that the directives matter is in faults-redirect.test.ts',
    },
  },
  hang: 'knob',
  echoGap: (echo, placement) =>
    echo.form === 'form' && placement.inText
      ? "Make caps an IML expression at 1,024 characters, so the redaction leaves out the form-encoded form, which differs from the URL-encoded one only for !'()*~ (docs/guarantees.md, Secrets)"
      : undefined,
};
