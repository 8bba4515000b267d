import { expect } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../../cli/settings.ts';
import type { SourceId } from '../../shared/directory-import/sources.ts';
import { grafanaOnCall, ONCALL_PREFIX } from '../support/source-stand-ins/grafana-oncall.ts';
import { opsgenie } from '../support/source-stand-ins/opsgenie.ts';
import type { OrgPerson } from '../support/source-stand-ins/org.ts';
import { pagerduty } from '../support/source-stand-ins/pagerduty.ts';
import { type Fault, type StandIn, startStandIn, type Vendor } from '../support/source-stand-ins/stand-in.ts';
import type { Pem } from '../support/tls-certificates.ts';
import { KEY_MARK, type Run, run } from './support.ts';

/** Each source's key: recognisable (KEY_MARK), so every run checks none appears in any output. */
export const SOURCE_KEYS: Readonly<Record<SourceId, string>> = {
  opsgenie: `${KEY_MARK}-opsgenie-3f9a7d21c4`,
  pagerduty: `${KEY_MARK}-pagerduty-b81e66d0a5`,
  'grafana-oncall': `${KEY_MARK}-oncall-0c4d92e7f1`,
};

/** The stand-in of a source over an organisation. */
export function vendorOf(source: SourceId, org: readonly OrgPerson[], key = SOURCE_KEYS[source]): Vendor {
  return source === 'opsgenie' ? opsgenie(org, key) : source === 'pagerduty' ? pagerduty(org, key) : grafanaOnCall(org, key);
}

/** The variables that point the import at a stand-in, with the source's key (or `key`). */
export function sourceEnv(source: SourceId, url: string, key: string | null = SOURCE_KEYS[source]): Env {
  const withKey = (name: string) => (key === null ? {} : { [name]: key });
  if (source === 'opsgenie') return { OPSGENIE_API_URL: url, ...withKey('OPSGENIE_API_KEY') };
  if (source === 'pagerduty') return { PAGERDUTY_API_URL: url, ...withKey('PAGERDUTY_API_TOKEN') };
  return { GRAFANA_ONCALL_API_URL: `${url}${ONCALL_PREFIX}`, ...withKey('GRAFANA_ONCALL_API_TOKEN') };
}

/** A folder for the people files of one test file. */
export function tempFolder(): { path(name: string): string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'pagerly-import-'));
  return { path: (name) => join(folder, name), remove: () => rmSync(folder, { recursive: true, force: true }) };
}

export interface Imported extends Run {
  /** The file's text, or undefined when none was written. */
  file: string | undefined;
}

/**
 * `pagerly directory import <source> --out <out> ...extra` against a stand-in, in process (on a
 * terminal with `tty`); checks that no source key appears in the output (run) nor in the file written.
 */
export async function runImport(
  source: SourceId,
  standIn: StandIn,
  out: string,
  extra: readonly string[] = [],
  env: Env = {},
  { tty = false } = {},
): Promise<Imported> {
  const r = await run(['directory', 'import', source, '--out', out, ...extra], { env: { ...sourceEnv(source, standIn.url), ...env }, tty });
  const file = existsSync(out) && statSync(out).isFile() ? readFileSync(out, 'utf8') : undefined;
  if (file !== undefined) expect(file).not.toContain(KEY_MARK);
  return { ...r, file };
}

/** A stand-in of `source` over `org`, with `faults` before it. */
export const standInFor = (source: SourceId, org: readonly OrgPerson[], options: { faults?: Fault[]; tls?: Pem } = {}) =>
  startStandIn(vendorOf(source, org), options);

/** Where each source lists its users, as the stand-ins serve it. */
export const LIST_PATH: Readonly<Record<SourceId, string>> = {
  opsgenie: '/v2/users',
  pagerduty: '/users',
  'grafana-oncall': `${ONCALL_PREFIX}/api/v1/users/`,
};
