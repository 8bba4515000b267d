import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cacheDir } from '../engine/cache.ts';
import type { N8nRest } from './rest.ts';

/**
 * Cron expressions that fire once a minute each, `offsets` seconds from now: n8n's shortest
 * allowed poll interval is a minute per expression, so two of them give two polls a minute
 * apart by seconds, and the test waits seconds, not minutes.
 */
export function secondsFromNow(offsets: readonly number[], now = new Date()): string[] {
  return offsets.map((offset) => `${(now.getSeconds() + offset) % 60} * * * * *`);
}

export interface ExecutionSummary {
  id: string;
  status: string;
  mode: string;
}

/** The executions of one workflow, oldest first. */
export async function executionsOf(rest: N8nRest, workflowId: string): Promise<ExecutionSummary[]> {
  const list = await rest.request<{ results: ExecutionSummary[] }>('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
  return [...list.results].sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * The items one node output in an execution. n8n stores run data in the `flatted` format; its
 * own copy of the decoder (in the engine's cache) reads it back.
 */
export async function itemsOf(rest: N8nRest, executionId: string, nodeName: string): Promise<Record<string, unknown>[]> {
  const execution = await rest.request<{ data: string }>('GET', `/executions/${executionId}`);
  const engine = createRequire(join(cacheDir(), 'node_modules', 'n8n', 'package.json'));
  const { parse } = engine('flatted') as { parse: (text: string) => unknown };
  const data = parse(execution.data) as { resultData: { runData: Record<string, { data?: { main?: { json: Record<string, unknown> }[][] } }[]> } };
  return (data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}
