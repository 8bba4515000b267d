import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installIntoEmptyFolder, runIn, writeInto } from './install.ts';

/**
 * `@pagerly/client` installs light: from its tarball, alone, into an empty folder, its
 * node_modules (the client and undici, for proxies) takes at most 3.5 MB as `du` counts it
 * (MiB, as `du -sh` prints), with no zod in it, and a consumer compiled with `module: nodenext`
 * still type-checks against it: the zod types its methods name travel inside the package.
 */
export const CLIENT_INSTALLED_MAX_KIB = 3.5 * 1024;

const root = fileURLToPath(new URL('../', import.meta.url));

export interface ClientInstall {
  /** `du -sk node_modules`: what the install takes on disk, in KiB. */
  readonly kib: number;
  /** The packages installed, by name. */
  readonly packages: readonly string[];
  /** What is wrong, or undefined. */
  readonly problem: string | undefined;
}

/** The packages in a node_modules folder, scopes opened. */
function packagesIn(modules: string): string[] {
  return readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name]));
}

/** A consumer's first lines with the client: typed calls, a typed error, the settings type. */
const CONSUMER = `import { createClient, RateLimitError, type ClientSettings, type PagerlyClient } from '@pagerly/client';
const settings: ClientSettings = { apiKey: 'key', timeoutMs: 5_000 };
const pagerly: PagerlyClient = createClient(settings);
const teams: { id: string; name: string }[] = await pagerly.listTeams();
const incident = await pagerly.createOrUpdateIncident({ title: 'Disk full', status: 'triggered' });
export const id: string | undefined = incident.id;
export const names: string[] = (await pagerly.listOnCallUsers({ teamname: teams[0]?.name ?? 'Platform' })).map((person) => person.name);
export const wait: number | undefined = new RateLimitError('slow down', 30).retryAfterSeconds;
// @ts-expect-error: a status the catalog does not know is refused by the types.
await pagerly.createOrUpdateIncident({ title: 'Disk full', status: 'snoozed' });
`;

/** Installs the client's tarball alone into an empty folder and measures it; the folder is removed after. */
export async function clientInstall(tarball: string): Promise<ClientInstall> {
  const folder = installIntoEmptyFolder([tarball]);
  try {
    const modules = join(folder, 'node_modules');
    const kib = Number(execFileSync('du', ['-sk', modules], { encoding: 'utf8' }).split(/\s/)[0]);
    const packages = packagesIn(modules);
    const problems: string[] = [];
    if (!(kib <= CLIENT_INSTALLED_MAX_KIB)) problems.push(`it installs ${mb(kib)}, more than ${mb(CLIENT_INSTALLED_MAX_KIB)}: ${packages.join(', ')}`);
    if (existsSync(join(modules, 'zod'))) problems.push('zod is installed with it: the client is to carry what it uses of zod');
    writeConsumerTsconfig(folder, root);
    writeInto(folder, 'typed.ts', CONSUMER);
    const tsc = await runIn(folder, process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {});
    if (tsc.code !== 0) problems.push(`a nodenext consumer does not type-check without zod installed:\n${tsc.stdout}${tsc.stderr}`.trim());
    return { kib, packages, problem: problems.length ? problems.join('\n') : undefined };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const mb = (kib: number) => `${(kib / 1024).toFixed(1)} MB`;

/** For npm run smoke's `step`: prints what it measured; returns the problem, if any. */
export async function clientInstallsLight(tarball: string): Promise<string | undefined> {
  const install = await clientInstall(tarball);
  console.log(`  installed alone: ${mb(install.kib)} (du -sk node_modules: ${install.kib} KiB; ${install.packages.join(', ')})`);
  return install.problem;
}

/**
 * A consumer's tsconfig as strict as a careful user's: `module: nodenext`, no DOM lib, the
 * package's own declarations checked (`skipLibCheck: false`), type-checking `typed.ts`.
 */
export function writeConsumerTsconfig(folder: string, root: string): void {
  writeInto(
    folder,
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022'],
        types: ['node'],
        typeRoots: [join(root, 'node_modules', '@types')],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
      files: ['typed.ts'],
    }),
  );
}
