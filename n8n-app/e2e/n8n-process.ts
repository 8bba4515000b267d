import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LINE, type EngineLine, n8nBin, nodeBin } from '../engine/cache.ts';
import { holdChild, holdFolder, stopChild } from './cleanup.ts';

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

/** How to run one n8n process: its engine line, its command and what it adds to the environment. */
export interface N8nOptions {
  /** The engine line (n8n version and its Node) from the cache. Default: the project Node's line. */
  readonly line?: EngineLine;
  /**
   * `start` (the main instance: editor, REST API, triggers) or `worker` (queue mode: runs the
   * executions the main instance puts on the queue; its port serves n8n's worker health checks).
   */
  readonly command?: 'start' | 'worker';
  /** Added to (and overriding) the environment below: queue mode and its database, for example. */
  readonly env?: NodeJS.ProcessEnv;
  /** Another process's user folder to share (a worker beside its main instance); default a fresh one, removed by remove(). */
  readonly folder?: string;
}

/**
 * One n8n instance: a fresh user folder (its SQLite database, settings and encryption key),
 * loopback only, with the built package loaded as a custom extension, and nothing that calls
 * n8n's servers (telemetry, version checks, templates).
 */
export class N8nInstance {
  readonly folder: string;
  readonly url: string;
  readonly port: number;
  readonly line: EngineLine;
  readonly command: 'start' | 'worker';
  private readonly extensions: string;
  private readonly extraEnv: NodeJS.ProcessEnv;
  /** Deletes the folder this instance made (nothing for a shared one); the run's clean-up holds it until then. */
  private readonly removeFolder: () => void;
  private runnersPort = 0;
  private server: ChildProcess | undefined;
  private log = '';

  constructor(port: number, extensions: string, options: N8nOptions = {}) {
    this.port = port;
    this.extensions = extensions;
    this.line = options.line ?? DEFAULT_LINE;
    this.command = options.command ?? 'start';
    this.extraEnv = options.env ?? {};
    this.folder = options.folder ?? mkdtempSync(join(tmpdir(), 'pagerly-n8n-'));
    this.removeFolder = options.folder === undefined ? holdFolder(this.folder) : () => undefined;
    this.url = `http://127.0.0.1:${port}`;
  }

  /** The running process's id (undefined before start). */
  get pid(): number | undefined {
    return this.server?.pid;
  }

  env(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: this.folder,
      N8N_USER_FOLDER: this.folder,
      // None (an empty folder) for an instance that loads the package as a community package only.
      ...(this.extensions ? { N8N_CUSTOM_EXTENSIONS: this.extensions } : {}),
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
      // n8n's task runner broker listens on a fixed port (5679) by default: two instances on one
      // machine (a main and its worker, or two checkouts' runs) would collide.
      ...(this.runnersPort ? { N8N_RUNNERS_BROKER_PORT: String(this.runnersPort) } : {}),
      ...(this.command === 'worker'
        ? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(this.port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' }
        : {}),
      ...this.extraEnv,
    };
  }

  /** `n8n start` (or `n8n worker`) on the line's Node, ready when /healthz/readiness answers 200. */
  async start(timeoutMs = 600_000): Promise<void> {
    this.runnersPort ||= await freePort();
    this.server = spawn(nodeBin(this.line), [n8nBin(this.line), this.command], { env: this.env(), stdio: ['ignore', 'pipe', 'pipe'] });
    holdChild(`n8n ${this.command} (pid ${this.server.pid})`, this.server, 30_000);
    const keep = (chunk: Buffer) => {
      this.log = `${this.log}${chunk}`.slice(-20_000);
    };
    this.server.stdout!.on('data', keep);
    this.server.stderr!.on('data', keep);
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (this.server.exitCode !== null) throw new Error(`n8n ${this.command} exited (${this.server.exitCode}) while starting:\n${this.log}`);
      const ready = await fetch(`${this.url}/healthz/readiness`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`n8n ${this.command} did not become ready in ${timeoutMs / 1000} s:\n${this.log}`);
  }

  /** SIGTERM, then wait for n8n's graceful shutdown (it deactivates nothing: workflows stay as they are). */
  async stop(): Promise<void> {
    if (this.server) await stopChild(this.server, 'SIGTERM', 30_000);
  }

  /**
   * One command of n8n's CLI on the same user folder (the server must be stopped: one SQLite
   * writer). Asynchronous: the sandbox answering the CLI's requests runs in this process.
   */
  async cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
    this.runnersPort ||= await freePort();
    // The CLI prints its result through the logger, at level info.
    const child = spawn(nodeBin(this.line), [n8nBin(this.line), ...args], { env: { ...this.env(), N8N_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    holdChild(`n8n ${args[0]} (pid ${child.pid})`, child, 30_000);
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

  /** Deletes the user folder this instance made (a shared one is its owner's to delete). */
  remove(): void {
    this.removeFolder();
  }
}
