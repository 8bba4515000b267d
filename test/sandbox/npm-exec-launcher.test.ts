import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * npm exec (npx) runs a bin under `sh -c` and passes SIGTERM only to that shell. A process that
 * uses stopWhenNpmExecGoes stops once that shell is gone, if npm exec started it, and only then.
 */
const launcher = pathToFileURL(join(process.cwd(), 'sandbox/npm-exec-launcher.ts')).href;

async function run(env: Record<string, string>): Promise<{ stopped: boolean }> {
  const folder = mkdtempSync(join(tmpdir(), 'pagerly-npm-exec-'));
  const script = join(folder, 'child.ts');
  writeFileSync(
    script,
    `import { stopWhenNpmExecGoes } from '${launcher}';
stopWhenNpmExecGoes(() => { console.log('stopped'); process.exit(0); }, process.env, 20);
setInterval(() => {}, 1_000);
console.log('ready');
`,
  );
  // `; true` makes the shell wait for node rather than become it, as npm exec's shell does.
  const shell = spawn('sh', ['-c', `"${process.execPath}" "${script}"; true`], {
    env: { PATH: process.env.PATH ?? '', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  shell.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const wait = async (what: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!what() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return what();
  };
  const groupAlive = () => {
    try {
      process.kill(-shell.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    expect(await wait(() => out.includes('ready'), 10_000)).toBe(true);
    // The shell alone ends, as when npm passes it a SIGTERM.
    process.kill(shell.pid!, 'SIGKILL');
    await wait(() => out.includes('stopped') || !groupAlive(), 1_000);
    return { stopped: out.includes('stopped') };
  } finally {
    if (groupAlive()) process.kill(-shell.pid!, 'SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('stopWhenNpmExecGoes', () => {
  it('stops a process npm exec started once the shell it ran under is gone', async () => {
    expect(await run({ npm_command: 'exec' })).toEqual({ stopped: true });
  });

  it('leaves a process started any other way running when its parent goes (nohup keeps its meaning)', async () => {
    expect(await run({})).toEqual({ stopped: false });
  });
});
