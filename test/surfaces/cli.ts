import { main } from '../../cli/main.ts';
import { Capture } from '../cli/support.ts';
import { codeOfSharedMessage, INPUT, type ErrorKind, type Outcome, type SurfaceDriver, type Target } from './driver.ts';
import type { PagerlyErrorCode } from '../../shared/errors.ts';

/** The codes of the shared model; the CLI's own (`usage`, `sync_failed`, ...) are none of them. */
const SHARED_CODES: ReadonlySet<string> = new Set<PagerlyErrorCode>([
  'authentication',
  'permission',
  'not_found',
  'invalid_input',
  'rate_limited',
  'server',
  'network',
  'timeout',
  'invalid_response',
  'request',
  'redirect',
  'host_not_found',
  'certificate',
  'proxy',
]);

/**
 * `pagerly … --json`, run in process as the binary runs it. `--retries 0`: the CLI has no
 * backoff setting, and its waits between retries (and the exit codes they end in) are its own
 * facts, proven in faults-outcome.test.ts; the requests are the typed client's, whose retries
 * the battery runs. `pick` takes the call's result out of the JSON the command prints.
 */
async function pagerly(command: readonly string[], { baseUrl, apiKey, timeoutMs }: Target, pick: (printed: unknown) => unknown = (v) => v): Promise<Outcome> {
  const stdout = new Capture();
  const stderr = new Capture();
  const timeout = timeoutMs === undefined ? [] : ['--timeout', String(timeoutMs / 1000)];
  const code = await main(['--base-url', baseUrl, '--retries', '0', ...timeout, ...command, '--json'], { PAGERLY_API_KEY: apiKey }, { stdout, stderr });
  const shown = { stdout: stdout.text, stderr: stderr.text, exitCode: code };
  if (code === 0) return { ok: true, value: pick(JSON.parse(stdout.text || 'null')), shown };
  try {
    const { error } = JSON.parse(stderr.text) as { error: { message: string; code: string } };
    const kind: ErrorKind = SHARED_CODES.has(error.code) ? (error.code as PagerlyErrorCode) : codeOfSharedMessage(error.message);
    return { ok: false, message: error.message, kind, native: `${error.code} (exit ${code})`, own: typeof error.code === 'string', shown };
  } catch {
    return { ok: false, message: stderr.text, kind: 'unknown', native: `exit ${code}`, own: false, shown };
  }
}

/** `teams --json` prints `{"teams": [...]}`: the teams are the result. */
const teams = (printed: unknown) => (printed as { teams?: unknown[] } | null)?.teams;

/** `on-call --json` prints `{"teams": [{..., "onCall": [...]}]}`: the people are the result. */
const people = (printed: unknown) => ((printed as { teams?: { onCall?: unknown[] }[] } | null)?.teams ?? []).flatMap((team) => team.onCall ?? []);

/** Every team's section, each person with the team it lists them under (the CLI groups rather than repeats it). */
const peopleWithTeams = (printed: unknown) =>
  ((printed as { teams?: { id: string; name: string; onCall?: Record<string, unknown>[] }[] } | null)?.teams ?? []).flatMap((team) =>
    (team.onCall ?? []).map((person) => ({ ...person, team: { id: team.id, name: team.name } })),
  );

export const cliDriver: SurfaceDriver = {
  name: 'CLI',
  read: (target) => pagerly(['teams'], target, teams),
  write: (target) => pagerly(['incident', 'create', '--title', 'Disk full'], target),
  checkKey: (target) => pagerly(['check'], target),
  onCall: (target) => pagerly(['on-call', '--team', INPUT.team], target, people),
  everyoneOnCall: (target) => pagerly(['on-call'], target, peopleWithTeams),
  directoryEntry: (target) => pagerly(['directory', 'get', target.email ?? INPUT.email], target),
  directoryWrite: (target) => pagerly(['directory', 'phone', target.email ?? INPUT.email, INPUT.phone], target),
  redirect: { native: 'redirect (exit 78)', statusSaid: (status) => `HTTP ${status}`, namesTargetHost: true, sameOrigin: 'followed' },
  hang: 'knob',
};
