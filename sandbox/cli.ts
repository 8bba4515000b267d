/**
 * Runs the sandbox for local work and demos:
 *   node sandbox/cli.ts [--port N] [--seed FILE] [--fixed-clock] [--state FILE]
 * Port from --port, else PORT, else 4010; always on 127.0.0.1. The clock follows wall time
 * unless --fixed-clock pins it at the seed's `clockStart`. With --state, subscriptions,
 * pending hook deliveries, id counters and the last known on-call sets are kept in FILE
 * (JSON) and picked up again by the next start on the same file.
 */
import { parseArgs } from 'node:util';
import { describeOrphans } from './hooks/orphan-report.ts';
import { createSandbox, demoSeed, readSeedFile, SeedError, StateFileError, type Sandbox, type ValidSeed } from './index.ts';

const DEFAULT_PORT = 4010;
const HOST = '127.0.0.1';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    seed: { type: 'string' },
    'fixed-clock': { type: 'boolean', default: false },
    state: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(`Usage: node sandbox/cli.ts [--port N] [--seed FILE] [--fixed-clock] [--state FILE]
  --port N        port on 127.0.0.1 (PORT env also sets it; default 4010)
  --seed FILE     the world to serve (default: the demo seed)
  --fixed-clock   pin the clock at the seed's clockStart instead of following wall time
  --state FILE    keep subscriptions, pending hook deliveries, id counters and on-call sets
                  in FILE (JSON), and pick them up again when started on the same file`);
  process.exit(0);
}

const port = Number(values.port ?? process.env.PORT ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port must be a port number, not "${values.port ?? process.env.PORT}"`);

let seed: ValidSeed = demoSeed;
try {
  if (values.seed) seed = readSeedFile(values.seed);
} catch (error) {
  if (error instanceof SeedError) fail(error.message);
  throw error;
}

if (values.state === '') fail('--state needs a file name');
let sandbox: Sandbox;
try {
  sandbox = await createSandbox({
    seed,
    clock: values['fixed-clock'] ? { mode: 'fixed' } : { mode: 'real' },
    ...(values.state === undefined ? {} : { persistence: { file: values.state } }),
  });
} catch (error) {
  if (error instanceof StateFileError) fail(error.message);
  throw error;
}
const baseUrl = await sandbox.listen({ port, host: HOST });
const rotationsUrl = `${baseUrl}/pagerly`;
const keys = labelledKeys(seed);
const labelWidth = Math.max(0, ...keys.map(({ label }) => label.length)) + 1;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const kept = sandbox.kept === undefined ? '' : `\n  State file:          ${values.state} (${plural(sandbox.world.subscriptions.size, 'subscription')} kept, ${plural(sandbox.kept.resumed, 'pending delivery', 'pending deliveries')} resumed${sandbox.kept.orphans.length ? `, ${sandbox.kept.orphans.length} orphaned: see the warning` : ''})`;
// Never silently dropped: orphaned deliveries are named at every start (and kept in the file).
if (sandbox.kept?.orphans.length) console.error(describeOrphans(values.state ?? '', sandbox.kept.orphans));
console.log(`Pagerly sandbox is running (clock: ${values['fixed-clock'] ? 'fixed' : 'real'}, now ${sandbox.clock.now().toISOString()})

  API base URL:        ${baseUrl}
  Rotations base URL:  ${rotationsUrl}${kept}

  API keys of this sandbox (fake; they open nothing else):
${keys.map(({ label, key }) => `    ${label.padEnd(labelWidth)} ${key}`).join('\n')}

  Try:
    curl -s -H 'X-APIKEY: ${keys[0]?.key ?? '<API_KEY>'}' '${rotationsUrl}/o/currentusers?teamname=${encodeURIComponent(seed.organizations[0]?.teams[0]?.name ?? 'Platform')}'

  Ctrl-C stops it.`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: closing the sandbox`);
    // Nothing else holds the process open: it ends once the sandbox has closed.
    sandbox.close().catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  });
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

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
