import { main } from '../../cli/main.ts';
import { Capture } from '../cli/support.ts';
import type { Outcome, SurfaceDriver, Target } from './driver.ts';

/**
 * `pagerly … --json`, run in process as the binary runs it. `--retries 0`: the CLI has no
 * backoff setting, and its waits between retries (and the exit codes they end in) are its own
 * facts, proven in faults-outcome.test.ts; the requests are the typed client's, whose retries
 * the battery runs.
 */
async function pagerly(command: readonly string[], { baseUrl, apiKey, timeoutMs }: Target): Promise<Outcome> {
  const stdout = new Capture();
  const stderr = new Capture();
  const timeout = timeoutMs === undefined ? [] : ['--timeout', String(timeoutMs / 1000)];
  const code = await main(['--base-url', baseUrl, '--retries', '0', ...timeout, ...command, '--json'], { PAGERLY_API_KEY: apiKey }, { stdout, stderr });
  const shown = { stdout: stdout.text, stderr: stderr.text, exitCode: code };
  if (code === 0) return { ok: true, value: JSON.parse(stdout.text || 'null'), shown };
  try {
    const { error } = JSON.parse(stderr.text) as { error: { message: string; code: string } };
    return { ok: false, message: error.message, kind: error.code, own: typeof error.code === 'string', shown };
  } catch {
    return { ok: false, message: stderr.text, kind: `exit ${code}`, own: false, shown };
  }
}

export const cliDriver: SurfaceDriver = {
  name: 'CLI',
  read: (target) => pagerly(['teams'], target),
  write: (target) => pagerly(['incident', 'create', '--title', 'Disk full'], target),
  checkKey: (target) => pagerly(['check'], target),
  redirect: { kind: 'redirect', statusSaid: (status) => `HTTP ${status}`, namesTargetHost: true, sameOrigin: 'followed' },
  hang: 'knob',
};
