/**
 * `npx pagerly-sandbox` (npm exec) runs the command under `sh -c` and passes a SIGTERM it gets
 * only to that shell, which ends without passing it on: the sandbox would be left running with
 * nobody to stop it (a CI step's `kill`, a supervisor). Started by npm exec (it sets
 * `npm_command=exec`), the sandbox watches its parent and, once the parent is gone, calls
 * `stop`: the same shutdown as a SIGTERM. Started any other way, nothing is watched, so
 * `nohup` and the like keep their meaning.
 */
export function stopWhenNpmExecGoes(stop: () => void, env: NodeJS.ProcessEnv = process.env, everyMs = 200): void {
  if (env.npm_command !== 'exec') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, everyMs);
  // Never what keeps the process alive.
  timer.unref();
}
