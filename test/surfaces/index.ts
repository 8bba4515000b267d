import { clientDriver } from './client.ts';
import { cliDriver } from './cli.ts';
import type { SurfaceDriver } from './driver.ts';
import { makeDriver } from './make.ts';
import { n8nDriver } from './n8n.ts';
import { zapierDriver } from './zapier.ts';

/**
 * Every surface the hostile battery (battery.ts, run by test/reliability/hostile-battery.test.ts)
 * drives through its real runtime. A new surface joins with one driver file in this folder,
 * implementing `SurfaceDriver` (driver.ts): list teams, create an incident and check the key
 * against a base URL and key it is given, each normalized to an `Outcome`, and the facts in
 * which it differs on purpose (each a `Gap` with its reason and where it is proven instead);
 * and one line below. It then meets every case of the battery. A surface of surfaces/index.ts
 * without a driver here fails the battery's first test.
 */
export const drivers: readonly SurfaceDriver[] = [clientDriver, cliDriver, zapierDriver, makeDriver, n8nDriver];
