// Part 7: "everyone on call" at 2,000 teams × 2 people on every surface. The sandbox is seeded
// with one organization of 2,000 teams, two people on call in each and everyone on call in two
// teams (sandbox/seed/scale.ts); each surface then reads everyone on call as its users would, in
// a process of its own (bench/scale-worker.ts), one surface after the other, and says how many
// results it gave, how many requests the sandbox got from it (each surface has its own key), how
// many bytes it handed on, how long it took and its peak memory. MCP twice: the first page a
// model gets (its `limit` bounds the requests too), and every page, going on by `next_cursor`.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage } from 'node:http';
import { DEFAULT_LIMIT } from '../mcp-server/tools.ts';
import { createSandbox, scaleKey, scaleSeed } from '../sandbox/index.ts';
import { TEAM_LOOKUPS } from '../shared/on-call/by-team.ts';
import { SURFACES, type WorkerFigures } from './scale-worker.ts';

const WORKER = fileURLToPath(new URL('./scale-worker.ts', import.meta.url));

/** The aims: about 1 KB per result on Zapier and n8n, at most 100 KB of MCP text. */
export const SCALE_AIMS = { bytesPerResult: { Zapier: 1_024, n8n: 1_024 }, mcpTextBytes: 100_000 } as const;

export interface ScaleSettings {
  teams: number;
  /** The sandbox's requests per minute per key; 0: no limit. Each surface has its own key. */
  rateLimitPerMinute: number;
  /** The most one surface may take. */
  timeoutMs: number;
}

export interface ScaleFigures {
  settings: ScaleSettings;
  /** Requests one read of everyone costs: the team list, then each team. */
  requestsPerRead: number;
  /** The least time one read takes under the sandbox's default limit (600 a minute), from the requests alone. */
  minutesAtDefaultLimit: number;
  surfaces: (WorkerFigures & { bytesPerResult: number; requests: number })[];
  aims: typeof SCALE_AIMS;
  problems: string[];
}

/** The sandbox's own default (sandbox/index.ts): what a read of everyone meets unless told otherwise. */
const DEFAULT_LIMIT_PER_MINUTE = 600;

function runWorker(surface: string, env: Record<string, string>, timeoutMs: number): Promise<WorkerFigures> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [WORKER, surface],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: timeoutMs, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        const line = stdout.trim().split('\n').pop() ?? '';
        try {
          resolve(JSON.parse(line) as WorkerFigures);
        } catch {
          reject(new Error(`${surface}: ${error ? error.message : 'no figures'} ${stderr.slice(0, 300)}`));
        }
      },
    );
  });
}

export async function measureScale(settings: ScaleSettings): Promise<ScaleFigures> {
  const problems: string[] = [];
  const sandbox = await createSandbox({
    seed: scaleSeed({ teams: settings.teams, keys: SURFACES.length }),
    rateLimit: settings.rateLimitPerMinute > 0 ? { limit: settings.rateLimitPerMinute, windowMs: 60_000 } : false,
  });
  const surfaces: ScaleFigures['surfaces'] = [];
  // Each surface has its own key: the requests the sandbox got with it are that surface's.
  const requestsByKey = new Map<string, number>();
  try {
    const url = await sandbox.listen();
    sandbox.app.server.on('request', (request: IncomingMessage) => {
      const key = String(request.headers['x-apikey']);
      requestsByKey.set(key, (requestsByKey.get(key) ?? 0) + 1);
    });
    for (const [index, surface] of SURFACES.entries()) {
      let figures: WorkerFigures;
      try {
        figures = await runWorker(surface, { PAGERLY_BASE_URL: url, PAGERLY_API_KEY: scaleKey(index) }, settings.timeoutMs);
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
        continue;
      }
      const bytesPerResult = figures.results ? figures.bytes / figures.results : Number.NaN;
      const requests = requestsByKey.get(scaleKey(index)) ?? 0;
      surfaces.push({ ...figures, bytesPerResult, requests });
      if (figures.error) problems.push(`${surface} failed: ${figures.error}`);
      else if (surface === 'MCP') {
        // `limit` bounds the work: the team list and the teams of two that hold the first results, and the few in flight beside them.
        const most = 1 + Math.ceil(DEFAULT_LIMIT / 2) + TEAM_LOOKUPS - 1;
        if (requests > most) problems.push(`MCP sent ${requests} requests for its first ${DEFAULT_LIMIT} results, over ${most}`);
      } else if (figures.results - (figures.repeated ?? 0) !== 2 * settings.teams || figures.repeated)
        problems.push(`${surface} gave ${figures.results} people on call (${figures.repeated ?? 0} repeated), not ${2 * settings.teams}`);
    }
  } finally {
    await sandbox.close();
  }
  for (const figures of surfaces) {
    const aim = SCALE_AIMS.bytesPerResult[figures.surface as keyof typeof SCALE_AIMS.bytesPerResult];
    if (aim !== undefined && !figures.error && figures.bytesPerResult > aim)
      problems.push(`${figures.surface}: ${Math.round(figures.bytesPerResult)} bytes a result, over the aim of ${aim}`);
  }
  // What the model reads is bounded by the tool's own `limit`: over the aim, the bound has broken.
  const mcp = surfaces.find((figures) => figures.surface === 'MCP');
  if (mcp && !mcp.error && mcp.bytes > SCALE_AIMS.mcpTextBytes) problems.push(`MCP: ${mcp.bytes} bytes of text, over the aim of ${SCALE_AIMS.mcpTextBytes}`);
  const requestsPerRead = settings.teams + 1;
  return { settings, requestsPerRead, minutesAtDefaultLimit: requestsPerRead / DEFAULT_LIMIT_PER_MINUTE, surfaces, aims: SCALE_AIMS, problems };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ''))) {
  const { printScale } = await import('./report.ts');
  const teams = Number(process.env.BENCH_SCALE_TEAMS ?? 2_000);
  printScale(await measureScale({ teams, rateLimitPerMinute: Number(process.env.BENCH_SCALE_RATE_LIMIT ?? 0), timeoutMs: 600_000 }));
}
