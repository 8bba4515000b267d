import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../../', import.meta.url));
const noNetwork = fileURLToPath(new URL('../support/no-network.cjs', import.meta.url));

export interface ToolRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A tool's CLI, run as its users run it, on this Node, from the checkout. Asynchronously: a
 * sandbox in this process must keep answering while it runs. Offline: the preload refuses any
 * host but loopback and says so on stderr; Redocly is told not to send telemetry or look for
 * updates (`quiet: false` leaves that to its config, openapi/redocly.yaml).
 */
export function runTool(bin: string, args: readonly string[], { quiet = true } = {}): Promise<ToolRun> {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...(quiet ? { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } : {}) };
  if (!quiet) delete env['REDOCLY_TELEMETRY'];
  const child = spawn(process.execPath, ['--require', noNetwork, bin, ...args], {
    cwd: repo,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export const bins = {
  redocly: 'node_modules/@redocly/cli/bin/cli.js',
  spectral: 'node_modules/@stoplight/spectral-cli/dist/index.js',
  newman: 'node_modules/newman/bin/newman.js',
} as const;
