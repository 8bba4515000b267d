import { clientDriver, fetchClientDriver } from './client.ts';
import { cliDriver } from './cli.ts';
import type { SurfaceDriver } from './driver.ts';
import { makeDriver } from './make.ts';
import { mcpDriver } from './mcp.ts';
import { n8nDriver } from './n8n.ts';
import { zapierDriver } from './zapier.ts';

/**
 * Every surface, driven through its real runtime by the hostile battery (battery.ts, run by
 * test/reliability/hostile-battery.test.ts) and the conformance table (test/conformance/). A
 * new surface joins with one driver file in this folder, implementing `SurfaceDriver`
 * (driver.ts): check the key, list teams, read who is on call in a team, create an incident,
 * look up a directory entry and, with instant triggers, remove a hook, against a base URL and
 * key it is given, each normalized to an `Outcome` whose `kind` is the shared error code (the
 * mapping from its platform's errors is the driver's one job); the facts in which it differs
 * on purpose (each a `Gap` with its reason and where it is proven instead); and one line below.
 * It then meets every case of the battery and every row of the table. A surface of
 * scripts/surfaces.ts without a driver here fails the battery's first test.
 */
export const drivers: readonly SurfaceDriver[] = [clientDriver, fetchClientDriver, cliDriver, zapierDriver, makeDriver, n8nDriver, mcpDriver];
