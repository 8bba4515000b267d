import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type EngineLine, lineDir } from '../engine/cache.ts';
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
export async function itemsOf(rest: N8nRest, executionId: string, nodeName: string, line: EngineLine): Promise<Record<string, unknown>[]> {
  const execution = await rest.request<{ data: string }>('GET', `/executions/${executionId}`);
  const engine = createRequire(join(lineDir(line), 'node_modules', 'n8n', 'package.json'));
  const { parse } = engine('flatted') as { parse: (text: string) => unknown };
  const data = parse(execution.data) as { resultData: { runData: Record<string, { data?: { main?: { json: Record<string, unknown> }[][] } }[]> } };
  return (data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}

/** The error an execution ended with (a failed poll's, for one), as n8n stored it. */
export async function errorOf(rest: N8nRest, executionId: string, line: EngineLine): Promise<string> {
  const execution = await rest.request<{ data: string }>('GET', `/executions/${executionId}`);
  const engine = createRequire(join(lineDir(line), 'node_modules', 'n8n', 'package.json'));
  const { parse } = engine('flatted') as { parse: (text: string) => unknown };
  const data = parse(execution.data) as { resultData: { error?: { message?: string; description?: string } } };
  return [data.resultData.error?.message, data.resultData.error?.description].filter(Boolean).join(' ');
}

/**
 * Waits until the service has answered one more on-call read than `since` (the count of
 * `GET …/currentusers` requests seen before), and a moment more: a scheduled poll has read
 * who is on call. n8n 2.35 keeps what the poll at activation learnt; later lines run that
 * poll as a test and keep only what scheduled polls learn, so a change is made after one.
 */
export async function scheduledPollRead(seen: readonly { method: string; path: string }[], since: number, timeoutMs = 75_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (onCallReads(seen) <= since) {
    if (Date.now() > end) throw new Error(`no scheduled poll read who is on call in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The poll's answer was being sent: give n8n a moment to finish the poll and store its state.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}
export const onCallReads = (seen: readonly { method: string; path: string }[]) =>
  seen.filter((request) => request.method === 'GET' && request.path.endsWith('/currentusers')).length;
