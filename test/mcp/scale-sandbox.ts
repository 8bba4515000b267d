import type { IncomingMessage } from 'node:http';
import { createSandbox, type Sandbox, scaleKey, scaleSeed } from '../../sandbox/index.ts';
import type { RateLimitOptions } from '../../sandbox/plugins/rate-limit.ts';

/**
 * The sandbox with its scale seed (sandbox/seed/scale.ts): `teams` teams, team i putting person
 * i and person i+1 on call, so everyone is on call in two teams. It counts the requests it gets,
 * as its own HTTP server sees them arrive.
 */
export interface ScaleSandbox {
  readonly url: string;
  readonly sandbox: Sandbox;
  /** Every request that reached it so far: the path and query, and the key it came with. */
  readonly requests: readonly { readonly path: string; readonly key: string | undefined }[];
  /** How many requests the key sent to `currentusers` and `allteams`. */
  sent(key: string): { teams: number; lists: number };
  close(): Promise<void>;
}

export async function scaleSandbox(teams: number, options: { keys?: number; rateLimit?: RateLimitOptions | false } = {}): Promise<ScaleSandbox> {
  const sandbox = await createSandbox({ seed: scaleSeed({ teams, keys: options.keys ?? 1 }), rateLimit: options.rateLimit ?? false, console: false });
  const url = await sandbox.listen();
  const requests: { path: string; key: string | undefined }[] = [];
  sandbox.app.server.on('request', (request: IncomingMessage) => {
    const key = request.headers['x-apikey'];
    requests.push({ path: request.url ?? '', key: Array.isArray(key) ? key[0] : key });
  });
  return {
    url,
    sandbox,
    requests,
    sent: (key) => {
      const own = requests.filter((request) => request.key === key);
      return { teams: own.filter((r) => r.path.includes('/currentusers')).length, lists: own.filter((r) => r.path.includes('/allteams')).length };
    },
    close: () => sandbox.close(),
  };
}

/** Who is on call in team i of the scale seed: person i and person i+1 (of `teams`). */
export const expectedPeople = (teams: number) => Array.from({ length: teams }, (_, i) => [`team_${i}:usr_${i}`, `team_${i}:usr_${(i + 1) % teams}`]).flat();

export { scaleKey };
