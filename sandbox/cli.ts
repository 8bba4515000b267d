/**
 * Runs the sandbox for local work and demos:
 *   node sandbox/cli.ts [--port N] [--seed FILE | --scale-teams N] [--fixed-clock] [--state FILE] [--shutdown-timeout S] [--allowed-hosts NAMES]
 * Port from --port, else PORT, else 4010; always on 127.0.0.1. The clock follows wall time
 * unless --fixed-clock pins it at the seed's `clockStart`. With --state, subscriptions,
 * pending hook deliveries, id counters and the last known on-call sets are kept in FILE
 * (JSON) and picked up again by the next start on the same file.
 */
import { parseArgs } from 'node:util';
import { API_KEY_HEADER } from '../shared/http/types.ts';
import { DEFAULT_SHUTDOWN_TIMEOUT_SECONDS } from '../shared/shutdown/drain.ts';
import { stopOnSignals } from '../shared/shutdown/http-server.ts';
import { describeOrphans } from './delivery/describe-orphans.ts';
import { stopWhenNpmExecGoes } from './npm-exec-launcher.ts';
import { ALLOWED_HOSTS_FLAG, allowedHostList, type AllowedHosts } from './http/allowed-hosts.ts';
import { createSandbox, demoKeys, demoSeed, parseSeed, readSeedFile, scaleSeed, SeedError, StateFileError, type Sandbox, type ValidSeed } from './index.ts';

const DEFAULT_PORT = 4010;
const HOST = '127.0.0.1';
// The @pagerly/sandbox package's build defines this (esbuild's define): its user runs it with npx.
declare const PAGERLY_SANDBOX_PACKAGE: boolean | undefined;
const packaged = typeof PAGERLY_SANDBOX_PACKAGE !== 'undefined';
const command = packaged ? 'npx @pagerly/sandbox' : 'npm run sandbox --';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    seed: { type: 'string' },
    'scale-teams': { type: 'string' },
    'fixed-clock': { type: 'boolean', default: false },
    state: { type: 'string' },
    'shutdown-timeout': { type: 'string' },
    'allowed-hosts': { type: 'string', multiple: true },
    'public-console': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(`Usage: ${command} [--port N] [--seed FILE | --scale-teams N] [--fixed-clock] [--state FILE] [--shutdown-timeout S] [--allowed-hosts NAMES]

A stand-in of the Pagerly API on 127.0.0.1, for local work and demos. Ctrl-C or SIGTERM stops it:
it takes no new request, lets those in flight answer, saves --state, and exits 0.

Options:
  --port N        port on 127.0.0.1 (PORT env also sets it; default ${DEFAULT_PORT}; 0 picks a free one)
  --seed FILE     the world to serve, as JSON (default: ${packaged ? 'the demo world' : 'sandbox/seeds/demo.json'})
  --scale-teams N instead, one organization of N teams (1 to 20000), two people on call in each and
                  everyone on call in two teams (sandbox/seed/scale.ts), to try a large answer
  --fixed-clock   pin the clock at the seed's clockStart instead of following wall time
  --state FILE    keep subscriptions, pending hook deliveries, id counters and on-call sets
                  in FILE (JSON), and pick them up again when started on the same file
  --shutdown-timeout S  on Ctrl-C or SIGTERM, how long requests in flight may take (default
                  ${DEFAULT_SHUTDOWN_TIMEOUT_SECONDS}); a second signal stops it at once
  --allowed-hosts NAMES  more host names a request may be addressed to (its Host header),
                  comma-separated, on any port: the name a container, a proxy or a tunnel
                  reaches the sandbox by (host.docker.internal; .example.test for it and every
                  name under it). Without it, every route answers only localhost, *.localhost,
                  127.0.0.1 and [::1] with the sandbox's port; another Host gets 403, so a web
                  page whose domain is pointed at this machine (DNS rebinding) cannot use it.
                  "all" answers any Host: unsafe, any web page you open can then use it
  --public-console the same as --allowed-hosts all (kept for scripts that use it)
  -h, --help      this text

Demo keys (fake; they open nothing but this sandbox):
${demoKeyLines()}

Controls (no key needed; not part of the real service):
  GET    /_sandbox/clock    the sandbox's time and clock mode
  POST   /_sandbox/clock    {"advanceMs": 3600000} or {"set": "2026-11-02T09:00:00Z"}: move the
                            clock; on-call changes it causes are delivered to subscribed hooks
  GET    /_sandbox/faults   the faults still waiting, each with how many requests it has left
  POST   /_sandbox/faults   {"path": "/o/incident", "status": 503, "body": "...", "times": 1}:
                            answer the next matching request(s) with this instead
  DELETE /_sandbox/faults   clear the faults

Example:
  ${command} --port 4010 --state /tmp/pagerly-sandbox.json
  curl -s -H '${API_KEY_HEADER}: ${demoKeys.acmeAdmin}' http://127.0.0.1:4010/pagerly/o/zapier/allteams`);
  process.exit(0);
}

const port = Number(values.port ?? process.env.PORT ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port must be a port number, not "${values.port ?? process.env.PORT}"`);

let seed: ValidSeed = demoSeed;
try {
  if (values.seed && values['scale-teams'] !== undefined) fail('give --seed or --scale-teams, not both');
  if (values.seed) seed = readSeedFile(values.seed);
  if (values['scale-teams'] !== undefined) {
    const teams = Number(values['scale-teams']);
    if (!Number.isInteger(teams) || teams < 1 || teams > 20_000) fail(`--scale-teams must be a whole number from 1 to 20000, not "${values['scale-teams']}"`);
    seed = parseSeed(scaleSeed({ teams }), 'The scale seed');
  }
} catch (error) {
  if (error instanceof SeedError) fail(error.message);
  throw error;
}

const allowedHosts = allowedHostsFlag(values['allowed-hosts'], values['public-console']);
if (values.state === '') fail('--state needs a file name');
const shutdownTimeout = values['shutdown-timeout'] === undefined ? undefined : Number(values['shutdown-timeout']);
if (shutdownTimeout !== undefined && !(shutdownTimeout >= 0 && shutdownTimeout <= 3600))
  fail(`--shutdown-timeout must be a number of seconds from 0 to 3600, not "${values['shutdown-timeout']}"`);
let sandbox: Sandbox;
try {
  sandbox = await createSandbox({
    seed,
    clock: values['fixed-clock'] ? { mode: 'fixed' } : { mode: 'real' },
    allowedHosts,
    console: { allowRemote: values['public-console'] },
    ...(values.state === undefined ? {} : { persistence: { file: values.state } }),
  });
} catch (error) {
  if (error instanceof StateFileError) fail(error.message);
  throw error;
}
const baseUrl = await listenOrExplain(sandbox, port);
const rotationsUrl = `${baseUrl}/pagerly`;
const keys = labelledKeys(seed);
const labelWidth = Math.max(0, ...keys.map(({ label }) => label.length)) + 1;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const kept =
  sandbox.kept === undefined
    ? ''
    : `\n  State file:          ${values.state} (${plural(sandbox.world.subscriptions.size, 'subscription')} kept, ${plural(sandbox.kept.resumed, 'pending delivery', 'pending deliveries')} resumed${sandbox.kept.orphans.length ? `, ${sandbox.kept.orphans.length} orphaned: see the warning` : ''})`;
// Never silently dropped: orphaned deliveries are named at every start (and kept in the file).
if (sandbox.kept?.orphans.length) console.error(describeOrphans(values.state ?? '', sandbox.kept.orphans));
const hosts =
  allowedHosts === true
    ? ''
    : `\n  Answers Host:        localhost, 127.0.0.1 or [::1] at port ${new URL(baseUrl).port}${allowedHosts.length ? `; ${allowedHosts.join(', ')} at any port` : ''}`;
if (allowedHosts === true) {
  console.error(
    `Warning: the sandbox answers any Host (${values['public-console'] ? '--public-console' : `${ALLOWED_HOSTS_FLAG} all`}): a web page you open can use it and its demo keys through DNS rebinding. Name the hosts instead: ${ALLOWED_HOSTS_FLAG} NAME.`,
  );
}
console.log(`Pagerly sandbox is running (clock: ${values['fixed-clock'] ? 'fixed' : 'real'}, now ${sandbox.clock.now().toISOString()})

  Console:             ${baseUrl}/ (live: incidents, on-call, hooks, requests; the controls)
  API base URL:        ${baseUrl}
  Rotations base URL:  ${rotationsUrl}${hosts}${kept}

  API keys of this sandbox (fake; they open nothing else):
${keys.map(({ label, key }) => `    ${label.padEnd(labelWidth)} ${key}`).join('\n')}

  Try:
    curl -s -H '${API_KEY_HEADER}: ${keys[0]?.key ?? '<API_KEY>'}' '${rotationsUrl}/o/currentusers?teamname=${encodeURIComponent(seed.organizations[0]?.teams[0]?.name ?? 'Platform')}'

  Ctrl-C stops it.`);

// Requests in flight answer and the state file is saved before it exits (shared/shutdown/).
stopOnSignals(sandbox.app.server, {
  deadlineSeconds: shutdownTimeout,
  what: 'the sandbox',
  note: (text) => console.log(text),
  // An open console tab is a stream that never ends by itself: ended first, it holds nothing up.
  endStreams: () => sandbox.endStreams(),
  close: () => sandbox.close(),
});

stopWhenNpmExecGoes(() => process.kill(process.pid, 'SIGTERM'));

/** `--allowed-hosts a,b --allowed-hosts c`, `all`, or `--public-console` (which always meant any Host). */
function allowedHostsFlag(given: string[] | undefined, publicConsole: boolean): AllowedHosts {
  const names = (given ?? []).flatMap((value) => value.split(',')).map((name) => name.trim());
  if (names.includes('all')) {
    if (names.length > 1) fail(`${ALLOWED_HOSTS_FLAG} all answers any Host: give it alone, or name the hosts`);
    return true;
  }
  if (names.length === 0) return publicConsole ? true : [];
  try {
    return allowedHostList(names);
  } catch (error) {
    fail(`${ALLOWED_HOSTS_FLAG}: ${(error as Error).message.replace(/^allowedHosts: /, '')}`);
  }
}

/** An admin and a non-admin key of the first organization, and an admin key of another one. */
function labelledKeys(world: ValidSeed): { label: string; key: string }[] {
  const [home, ...others] = world.organizations;
  const keyOf = (org: ValidSeed['organizations'][number] | undefined, roles: string[]) => {
    for (const { key, personId } of org?.apiKeys ?? []) {
      const person = org?.people.find((p) => p.id === personId);
      if (person && roles.includes(person.role)) return { key, who: `${person.name}, ${org?.name}` };
    }
    return undefined;
  };
  const wanted = [
    { label: 'admin', found: keyOf(home, ['admin']) ?? keyOf(home, ['owner']) },
    { label: 'non-admin user', found: keyOf(home, ['user']) },
    { label: 'other-organization admin', found: others.map((org) => keyOf(org, ['admin', 'owner'])).find(Boolean) },
  ];
  return wanted.flatMap(({ label, found }) => (found ? [{ label: `${label} (${found.who}):`, key: found.key }] : []));
}

/** A busy port is a usage problem, not a crash: one line that says what to do. */
async function listenOrExplain(server: Sandbox, wanted: number): Promise<string> {
  try {
    return await server.listen({ port: wanted, host: HOST });
  } catch (error) {
    await server.close().catch(() => undefined);
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      fail(`Port ${wanted} on ${HOST} is already in use (another sandbox?). Stop it, or choose another port with --port N (--port 0 picks a free one).`);
    if (code === 'EACCES') fail(`Not allowed to listen on port ${wanted} of ${HOST}; choose a port above 1023 with --port N.`);
    throw error;
  }
}

function demoKeyLines(): string {
  const who = { acmeAdmin: 'Acme org admin', acmeUser: 'Acme non-admin user', acmeOwner: 'Acme owner', globexAdmin: 'Globex org admin (another organization)' };
  return Object.entries(demoKeys)
    .map(([name, key]) => `  ${who[name as keyof typeof who].padEnd(40)} ${key}`)
    .join('\n');
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
