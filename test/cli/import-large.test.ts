import { afterAll, describe, expect, it } from '@jest/globals';
import { SOURCE_IDS, SOURCES, type SourceId } from '../../shared/directory-import/sources.ts';
import { createSandbox } from '../../sandbox/index.ts';
import { oncallRateLimited } from '../support/source-stand-ins/grafana-oncall.ts';
import { opsgenieRateLimited } from '../support/source-stand-ins/opsgenie.ts';
import { expectedDirectory, makeOrg } from '../support/source-stand-ins/org.ts';
import { pagerdutyRateLimited } from '../support/source-stand-ins/pagerduty.ts';
import { type Answer, fault, send } from '../support/source-stand-ins/stand-in.ts';
import { LIST_PATH, runImport, standInFor, tempFolder } from './import-support.ts';
import { cliSeed, KEYS, run } from './support.ts';

/**
 * The job end to end at the size of a large organisation: 5,000 people of each vendor, many
 * pages (and, for Opsgenie, a request per person), a 429 on the way; `directory import`, then
 * `directory sync` of that file into the sandbox. Every active person arrives with their exact
 * e-mail, name, E.164 phone and mapped role; nobody else is created.
 */

const SIZE = 5_000;
const folder = tempFolder();
afterAll(() => folder.remove());

const throttled: Record<SourceId, () => Answer> = {
  opsgenie: () => opsgenieRateLimited(),
  pagerduty: () => pagerdutyRateLimited({}),
  'grafana-oncall': () => oncallRateLimited(),
};

describe.each(SOURCE_IDS.map((source) => [SOURCES[source].name, source] as const))('%s, %s', (_name, source) => {
  it(`${SIZE} people: import, then sync into the sandbox; every active person arrives exact`, async () => {
    const org = makeOrg(SIZE, source);
    // The tenth list request is refused once for its rate, without a wait: the import backs off and goes on.
    const standIn = await standInFor(source, org, {
      faults: [
        fault(
          (seen) => seen.url.pathname === LIST_PATH[source] && standInListCount(seen.url) === 10,
          1,
          (response) => send(response, throttled[source]()),
        ),
      ],
    });
    const sandbox = await createSandbox({ seed: cliSeed, rateLimit: false });
    const url = await sandbox.listen();
    try {
      const out = folder.path(`${source}-large.yaml`);
      const imported = await runImport(source, standIn, out, ['--json']);
      expect(imported.code).toBe(0);
      const expected = expectedDirectory(org, source);
      expect(imported.json().summary).toMatchObject({ listed: SIZE, written: expected.size });

      const before = new Set([...sandbox.world.people.values()].map((person) => person.email));
      const synced = await run(['--base-url', url, 'directory', 'sync', out, '--concurrency', '32', '--json'], { env: { PAGERLY_API_KEY: KEYS.admin } });
      expect(synced.code).toBe(0);
      expect(synced.json().summary).toMatchObject({ created: expected.size, failed: 0 });

      const arrived = new Map(
        [...sandbox.world.people.values()]
          .filter((person) => person.orgId === 'org_acme' && !before.has(person.email))
          .map((person) => [person.email, { name: person.name, phone: person.phone ?? null, role: person.role }]),
      );
      expect(arrived.size).toBe(expected.size);
      for (const [email, entry] of expected) expect({ email, ...arrived.get(email) }).toEqual({ email, ...entry });
    } finally {
      await Promise.all([standIn.close(), sandbox.close()]);
    }
  }, 300_000);
});

/** Which list request this is, counting from 1, from its paging parameters. */
function standInListCount(url: URL): number {
  const offset = url.searchParams.get('offset');
  if (offset !== null) return Number(offset) / 100 + 1;
  return Number(url.searchParams.get('page') ?? '1');
}
