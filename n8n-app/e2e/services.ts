import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ended, holdChild, holdFolder, stopChild } from './cleanup.ts';
import { freePort } from './n8n-process.ts';

/**
 * PostgreSQL and Redis for n8n's queue mode, each a throw-away server on a free loopback port
 * with its data in a temporary folder, started and stopped here: nothing is installed as a
 * service and nothing outlives the run. They come from Debian's `postgresql` and
 * `redis-server` packages (.ci/run installs them).
 */
export const INSTALL_HINT = 'apt-get install -y --no-install-recommends postgresql redis-server';

/** Where the servers come from and where their folders go. */
export interface ServiceOptions {
  /** The folder their temporary folders are made in (default: the system's). */
  readonly root?: string;
  /**
   * The `redis-server` program to run (default: $PAGERLY_REDIS_SERVER, else redis-server on
   * PATH): another build of Redis, or, in the leak test, one that fails to start.
   */
  readonly redisServer?: string;
}

/** A temporary folder, deleted on every path: by its server's stop, or by the run's clean-up when interrupted. */
function temporaryFolder(prefix: string, options: ServiceOptions): { path: string; remove: () => void } {
  const path = mkdtempSync(join(options.root ?? tmpdir(), prefix));
  return { path, remove: holdFolder(path) };
}

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

/** What is missing for queue mode's servers here (PostgreSQL's programs, redis-server), or undefined when both are installed. */
export function queueServicesMissing(): string | undefined {
  try {
    for (const program of ['initdb', 'postgres']) findProgram(program, postgresBinFolders());
    findProgram('redis-server', ['/usr/bin', '/usr/sbin']);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
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
  private readonly signal: NodeJS.Signals;

  /** `signal` is the server's own orderly shutdown, sent by stop() and by the run's clean-up. */
  constructor(program: string, args: string[], signal: NodeJS.Signals, options: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv } = {}) {
    this.signal = signal;
    this.child = spawn(program, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    // A program that cannot be run at all (ENOENT, EACCES) ends here rather than as an uncaught error.
    this.child.once('error', (error) => {
      this.log += `\n${error.message}`;
    });
    holdChild(program.replace(/.*\//, ''), this.child, 15_000, signal);
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
      if (ended(this.child) || this.child.pid === undefined)
        throw new Error(`${what} exited (${this.child.exitCode ?? this.child.signalCode ?? 'not started'}) while starting:\n${this.log.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${what} did not start in ${timeoutMs / 1000} s:\n${this.log.slice(-2000)}`);
  }

  async stop(): Promise<void> {
    await stopChild(this.child, this.signal, 15_000);
  }
}

export interface Postgres {
  readonly port: number;
  /** The server's process (the postmaster) and its temporary folder (data, socket). */
  readonly pid: number;
  readonly folder: string;
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
export async function startPostgres(options: ServiceOptions = {}): Promise<Postgres> {
  const folders = postgresBinFolders();
  const initdb = findProgram('initdb', folders);
  const postgres = findProgram('postgres', folders);
  const owner = postgresUser();
  const { path: folder, remove } = temporaryFolder('pagerly-pg-', options);
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
    remove();
    throw new Error(`initdb failed (exit ${init.status ?? init.error?.message}):\n${`${init.stdout}${init.stderr}`.slice(-2000)}`);
  }
  const port = await freePort();
  const server = new Server(
    postgres,
    ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', folder, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    // SIGINT: PostgreSQL's fast shutdown (ends the sessions, no waiting for clients).
    'SIGINT',
    { ...owner, env },
  );
  const stop = async () => {
    await server.stop();
    remove();
  };
  try {
    await server.waitFor('postgres', /database system is ready to accept connections/);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    port,
    pid: server.child.pid!,
    folder,
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
  readonly pid: number;
  readonly folder: string;
  /** n8n's settings for its job queue on it. */
  readonly n8nEnv: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** `redis-server` on a free loopback port, saving nothing (`--save ''`, no append-only file). */
export async function startRedis(options: ServiceOptions = {}): Promise<Redis> {
  const given = options.redisServer ?? process.env.PAGERLY_REDIS_SERVER;
  if (given !== undefined && !existsSync(given)) throw new Error(`redis-server is not at ${given} (PAGERLY_REDIS_SERVER): ${INSTALL_HINT}`);
  const program = given ?? findProgram('redis-server', ['/usr/bin', '/usr/sbin']);
  const { path: folder, remove } = temporaryFolder('pagerly-redis-', options);
  const port = await freePort();
  const server = new Server(program, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder], 'SIGTERM', {
    env: { PATH: process.env.PATH },
  });
  const stop = async () => {
    await server.stop();
    remove();
  };
  try {
    await server.waitFor('redis-server', /Ready to accept connections/);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, pid: server.child.pid!, folder, n8nEnv: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) }, stop };
}

/** The servers queue mode needs, both started. */
export interface QueueServices {
  readonly postgres: Postgres;
  readonly redis: Redis;
  stop(): Promise<void>;
}

/** A start of the queue's servers that failed: what had started, and was stopped again. */
export class QueueServicesError extends Error {
  readonly stopped: readonly { what: string; pid: number; folder: string }[];
  constructor(message: string, stopped: QueueServicesError['stopped']) {
    super(message);
    this.name = 'QueueServicesError';
    this.stopped = stopped;
  }
}

/**
 * PostgreSQL and Redis side by side. When one fails to start, the other is still waited for
 * and, if it started, stopped with its folder deleted before the error is thrown: a failed
 * start leaves nothing running (the error says what was stopped).
 */
export async function startQueueServices(options: ServiceOptions = {}): Promise<QueueServices> {
  const [postgres, redis] = await Promise.allSettled([startPostgres(options), startRedis(options)]);
  if (postgres.status === 'fulfilled' && redis.status === 'fulfilled') {
    const [pg, rd] = [postgres.value, redis.value];
    return { postgres: pg, redis: rd, stop: async () => void (await Promise.all([pg.stop(), rd.stop()])) };
  }
  const started = [
    ...(postgres.status === 'fulfilled' ? [{ what: 'postgres', server: postgres.value }] : []),
    ...(redis.status === 'fulfilled' ? [{ what: 'redis-server', server: redis.value }] : []),
  ];
  await Promise.all(started.map(({ server }) => server.stop()));
  const reasons = [postgres, redis].flatMap((result) => (result.status === 'rejected' ? [(result.reason as Error).message] : []));
  const stopped = started.map(({ what, server }) => ({ what, pid: server.pid, folder: server.folder }));
  const said = stopped.length ? `\n(${stopped.map((s) => `${s.what} pid ${s.pid}, which had started, was stopped and ${s.folder} deleted`).join('; ')})` : '';
  throw new QueueServicesError(`${reasons.join('\n')}${said}`, stopped);
}
