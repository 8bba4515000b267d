import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { n8nBin } from '../engine/cache.ts';

/** What one run of a workflow did, by node name: each run's error or its output items. */
export type RunData = Record<string, { error?: { message?: string }; data?: { main?: { json: Record<string, unknown> }[][] } }[]>;

/** A free loopback port for n8n's own server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * One n8n instance: a fresh user folder (its SQLite database, settings and encryption key),
 * loopback only, with the built package loaded as a custom extension, and nothing that calls
 * n8n's servers (telemetry, version checks, templates).
 */
export class N8nInstance {
  readonly folder = mkdtempSync(join(tmpdir(), 'pagerly-n8n-'));
  readonly url: string;
  readonly port: number;
  private readonly extensions: string;
  private server: ChildProcess | undefined;
  private log = '';

  constructor(port: number, extensions: string) {
    this.port = port;
    this.extensions = extensions;
    this.url = `http://127.0.0.1:${port}`;
  }

  env(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: this.folder,
      N8N_USER_FOLDER: this.folder,
      N8N_CUSTOM_EXTENSIONS: this.extensions,
      N8N_ENCRYPTION_KEY: 'pagerly-e2e-only-encryption-key',
      N8N_PORT: String(this.port),
      N8N_LISTEN_ADDRESS: '127.0.0.1',
      N8N_HOST: '127.0.0.1',
      N8N_PROTOCOL: 'http',
      WEBHOOK_URL: `${this.url}/`,
      N8N_SECURE_COOKIE: 'false',
      DB_TYPE: 'sqlite',
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_TEMPLATES_ENABLED: 'false',
      N8N_PERSONALIZATION_ENABLED: 'false',
      N8N_HIRING_BANNER_ENABLED: 'false',
      N8N_COMMUNITY_PACKAGES_ENABLED: 'false',
      N8N_AI_ENABLED: 'false',
      N8N_LOG_LEVEL: 'warn',
      N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
      EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
    };
  }

  /** `n8n start`, ready when /healthz/readiness answers 200. */
  async start(timeoutMs = 240_000): Promise<void> {
    this.server = spawn(process.execPath, [n8nBin(), 'start'], { env: this.env(), stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      this.log = `${this.log}${chunk}`.slice(-20_000);
    };
    this.server.stdout!.on('data', keep);
    this.server.stderr!.on('data', keep);
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (this.server.exitCode !== null) throw new Error(`n8n exited (${this.server.exitCode}) while starting:\n${this.log}`);
      const ready = await fetch(`${this.url}/healthz/readiness`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`n8n did not become ready in ${timeoutMs / 1000} s:\n${this.log}`);
  }

  /** SIGTERM, then wait for n8n's graceful shutdown (it deactivates nothing: workflows stay as they are). */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }

  /**
   * One command of n8n's CLI on the same user folder (the server must be stopped: one SQLite
   * writer). Asynchronous: the sandbox answering the CLI's requests runs in this process.
   */
  cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
    // The CLI prints its result through the logger, at level info.
    const child = spawn(process.execPath, [n8nBin(), ...args], { env: { ...this.env(), N8N_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
  }

  /** Runs a saved workflow through the CLI (the server stopped) and gives its run data, node by node. */
  async execute(id: string): Promise<RunData> {
    const run = await this.cli(['execute', `--id=${id}`, '--rawOutput']);
    // The run is printed as indented JSON among the log lines: from a line "{" to the last "}".
    const start = run.stdout.search(/^\{$/m);
    const end = run.stdout.lastIndexOf('\n}') + 2;
    if (run.status !== 0 || start < 0 || end <= start) throw new Error(`n8n execute exited ${run.status}: ${(run.stderr || run.stdout).slice(-1500)}`);
    return (JSON.parse(run.stdout.slice(start, end)) as { data: { resultData: { runData?: RunData } } }).data.resultData.runData ?? {};
  }

  serverLog(): string {
    return this.log;
  }

  remove(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}
