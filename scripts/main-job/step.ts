import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';

/** One operation of one platform, run against the sandbox. */
export interface Step {
  platform: 'Zapier' | 'Make' | 'n8n' | 'Sandbox';
  operation: string;
  /** What it calls, e.g. `POST /o/incident`; several for operations that make several calls. */
  calls: string;
  /** Runs it; the text says what came back, in a few words. */
  run(): Promise<string>;
}

export interface StepResult {
  step: Step;
  ok: boolean;
  text: string;
  ms: number;
}

export const call = (...keys: EndpointKey[]) => keys.map((key) => `${endpoints[key].method} ${endpoints[key].path}`).join(' + ');

/** Runs a step and never throws: a failure is a result, so the report shows every operation. */
export async function runStep(step: Step): Promise<StepResult> {
  const started = performance.now();
  try {
    const text = await step.run();
    return { step, ok: true, text, ms: performance.now() - started };
  } catch (error) {
    const { name, type, message } = error as { name?: string; type?: string; message?: string };
    return { step, ok: false, text: `${type ?? name ?? 'Error'}: ${message ?? String(error)}`, ms: performance.now() - started };
  }
}

/** A value an earlier step produced, or a clear failure naming that step. */
export function needs<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`skipped: ${what} did not succeed`);
  return value;
}
