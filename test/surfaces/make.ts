import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { appFromFiles } from '../../make-app/interpreter/runner/app-folder.ts';
import { makeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { settle, type SurfaceDriver, type Target } from './driver.ts';

let app: ReturnType<typeof appFromFiles> | undefined;

/** The generated Make app through our runner, every URL of the service's origin moved to the target. */
function runner({ baseUrl, timeoutMs }: Target) {
  app ??= appFromFiles(generateMakeApp());
  return makeRunner(app, { origin: { from: DEFAULT_BASE_URL, to: baseUrl }, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

/** A MakeError by its type (one of Make's error types); anything else by its name. */
function makeError(error: unknown): { message: string; kind: string; own: boolean } {
  const { name, type, message } = (error ?? {}) as { name?: string; type?: string; message?: string };
  const own = name === 'MakeError';
  return { kind: String(own ? type : name), message: String(message ?? error), own };
}

const connection = (target: Target) => ({ apiKey: target.apiKey });

export const makeDriver: SurfaceDriver = {
  name: 'Make',
  surface: 'Make',
  read: (target) => settle(() => runner(target).rpc('listTeams', { connection: connection(target) }), makeError),
  write: (target) =>
    settle(() => runner(target).module('createIncident', { connection: connection(target), parameters: { title: 'Disk full', severity: 'P2' } }), makeError),
  checkKey: (target) => settle(() => runner(target).testConnection(connection(target)), makeError),
  redirect: {
    kind: 'DataError',
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
