import { z } from 'zod';
import { check, describeProblems } from '../../shared/validation.ts';

/** A canned answer for service requests, so a recording can capture how failures look. */
export interface Fault {
  method?: string;
  /** The path without a base prefix, e.g. `/o/zapier/allteams`, or a catalog path such as `/o/zapier/subscribe/{id}`. */
  path: string;
  status: number;
  body: string;
  /** Default `application/json; charset=utf-8`, since truncated JSON is the usual thing to fake. */
  contentType?: string;
  headers?: Record<string, string>;
  /** How many requests get it before it is gone; default 1. */
  times?: number;
  delayMs?: number;
}

export const faultSchema = z.object({
  method: z.string().trim().min(1).optional(),
  path: z.string().startsWith('/', 'must start with /, e.g. /o/zapier/allteams'),
  status: z.int().min(100, 'must be an HTTP status').max(599, 'must be an HTTP status'),
  body: z.string(),
  contentType: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  times: z.int().positive('must be at least 1').optional(),
  delayMs: z.int().nonnegative().optional(),
}) satisfies z.ZodType<Fault>;

/** For faults given in code: a mistake in a test should say what is wrong with the fault. */
export function parseFault(value: unknown): Fault {
  const result = check(faultSchema, value);
  if (!result.ok) throw new TypeError(`Not a usable fault: ${describeProblems(result.problems)}`);
  return result.value;
}

interface ArmedFault {
  readonly fault: Fault;
  remaining: number;
}

/** A fault waiting for its requests, as `GET /_sandbox/faults` lists it. */
export type PendingFault = Fault & { readonly remaining: number };

/** Faults waiting for their requests, first injected first used. */
export class FaultList {
  private armed: ArmedFault[] = [];
  /** Called with the pending faults each time they change (the console shows them live). */
  onChange: ((pending: readonly PendingFault[]) => void) | undefined;

  inject(fault: Fault): void {
    this.armed.push({ fault: { ...fault }, remaining: fault.times ?? 1 });
    this.changed();
  }

  clear(): void {
    if (this.armed.length === 0) return;
    this.armed = [];
    this.changed();
  }

  /** Every fault still waiting, first to be used first, with how many more requests get it. */
  pending(): PendingFault[] {
    return this.armed.map(({ fault, remaining }) => ({ ...fault, remaining }));
  }

  private changed(): void {
    this.onChange?.(this.pending());
  }

  /** The fault for this request, if any, counting it as used. `paths` are the ways to name the request. */
  take(method: string, paths: readonly string[]): Fault | undefined {
    const match = this.armed.find(({ fault }) => (!fault.method || fault.method.toUpperCase() === method) && paths.includes(fault.path));
    if (!match) return undefined;
    match.remaining -= 1;
    if (match.remaining <= 0) this.armed = this.armed.filter((armed) => armed !== match);
    this.changed();
    return match.fault;
  }
}
