import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './n8n-process.ts';

/**
 * PostgreSQL and Redis for n8n's queue mode, each a throw-away server on a free loopback port
 * with its data in a temporary folder, started and stopped here: nothing is installed as a
 * service and nothing outlives the run. They come from Debian's `postgresql` and
 * `redis-server` packages (.ci/run installs them).
 */
export const INSTALL_HINT = 'apt-get install -y --no-install-recommends postgresql redis-server';

/** A program on PATH, else in the first of the folders that has it. */
function findProgram(name: string, folders: readonly string[] = []): string {
  for (const folder of [...(process.env.PATH ?? '').split(delimiter), ...folders]) {
    if (folder && existsSync(join(folder, name))) return join(folder, name);
  }
  throw new Error(`${name} is not installed (${INSTALL_HINT})`);
}

/** Debian keeps PostgreSQL's server programs in /usr/lib/postgresql/<major>/bin, off PATH: the newest major. */
function postgresBinFolders(): string[] {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((major) => /^\d+$/.test(major))
    .sort((a, b) => Number(b) - Number(a))
    .map((major) => join(root, major, 'bin'));
}

/** PostgreSQL refuses to run as root: as root, it runs as the `postgres` user Debian's package creates. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'postgres');
  if (!entry) throw new Error(`PostgreSQL will not run as root and there is no postgres user (${INSTALL_HINT} creates it)`);
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

/** A server process, its output kept for the error that says why it did not start. */
class Server {
  private log = '';
  readonly child: ChildProcess;

  constructor(program: string, args: string[], options: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv } = {}) {
    this.child = spawn(program, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      this.log = `${this.log}${chunk}`.slice(-10_000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
  }

  output(): string {
    return this.log;
  }

  async waitFor(what: string, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (pattern.test(this.log)) return;
      if (this.child.exitCode !== null) throw new Error(`${what} exited (${this.child.exitCode}) while starting:\n${this.log.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${what} did not start in ${timeoutMs / 1000} s:\n${this.log.slice(-2000)}`);
  }

  async stop(signal: NodeJS.Signals): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

export interface Postgres {
  readonly port: number;
  readonly user: string;
  readonly database: string;
  /** n8n's settings for it (DB_TYPE=postgresdb and the connection). */
  readonly n8nEnv: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/**
 * `initdb` into a temporary folder, then `postgres` on a free loopback port with its socket in
 * that folder. Trust authentication on loopback only, and no fsync: a throw-away database a
 * test fills and deletes.
 */
export async function startPostgres(): Promise<Postgres> {
  const folders = postgresBinFolders();
  const initdb = findProgram('initdb', folders);
  const postgres = findProgram('postgres', folders);
  const owner = postgresUser();
  const folder = mkdtempSync(join(tmpdir(), 'pagerly-pg-'));
  if (owner) chownSync(folder, owner.uid, owner.gid);
  const data = join(folder, 'data');
  const user = 'n8n';
  const env = { PATH: process.env.PATH, LANG: 'C', LC_ALL: 'C' };
  const init = spawnSync(initdb, ['-D', data, '-U', user, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
    ...owner,
    env,
    cwd: folder,
    encoding: 'utf8',
  });
  if (init.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`initdb failed (exit ${init.status ?? init.error?.message}):\n${`${init.stdout}${init.stderr}`.slice(-2000)}`);
  }
  const port = await freePort();
  const server = new Server(
    postgres,
    ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', folder, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    { ...owner, env },
  );
  const stop = async () => {
    // SIGINT: PostgreSQL's fast shutdown (ends the sessions, no waiting for clients).
    await server.stop('SIGINT');
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await server.waitFor('postgres', /database system is ready to accept connections/);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    port,
    user,
    database: 'postgres',
    n8nEnv: {
      DB_TYPE: 'postgresdb',
      DB_POSTGRESDB_HOST: '127.0.0.1',
      DB_POSTGRESDB_PORT: String(port),
      DB_POSTGRESDB_DATABASE: 'postgres',
      DB_POSTGRESDB_USER: user,
      DB_POSTGRESDB_PASSWORD: 'unused-trust-authentication',
    },
    stop,
  };
}

export interface Redis {
  readonly port: number;
  /** n8n's settings for its job queue on it. */
  readonly n8nEnv: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** `redis-server` on a free loopback port, saving nothing (`--save ''`, no append-only file). */
export async function startRedis(): Promise<Redis> {
  const program = findProgram('redis-server', ['/usr/bin', '/usr/sbin']);
  const folder = mkdtempSync(join(tmpdir(), 'pagerly-redis-'));
  const port = await freePort();
  const server = new Server(program, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder], {
    env: { PATH: process.env.PATH },
  });
  const stop = async () => {
    await server.stop('SIGTERM');
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await server.waitFor('redis-server', /Ready to accept connections/);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, n8nEnv: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) }, stop };
}
