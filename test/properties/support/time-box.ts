import { Worker } from 'node:worker_threads';
import type { HttpResponse } from '../../../shared/http/types.ts';

/** The synchronous calls the worker can make. */
export type SyncCall =
  /** Template and scope as JSON text; the value comes back as its kind ('string', 'array', …). */
  | { fn: 'evaluateExpression'; args: [source: string, scopeJson: string] }
  | { fn: 'renderTemplate'; args: [templateJson: string, scopeJson: string] }
  | { fn: 'interpretResponse'; args: [key: string, response: HttpResponse, secrets: (string | undefined)[]] };

export interface ErrorSummary {
  name: string;
  className: string;
  message: string;
  isImlError: boolean;
  isPagerlyError: boolean;
  code?: string;
  retryable?: boolean;
  serviceMessage?: string | undefined;
  status?: number | undefined;
  retryAfterSeconds?: number | undefined;
}

export type CallResult = { ok: true; value: unknown } | { ok: false; error: ErrorSummary };
export type Outcome = CallResult | { timedOut: true; ms: number };
export interface CallRequest {
  id: number;
  call: SyncCall;
}

/**
 * A worker thread that makes synchronous calls with a time limit: a call that does not
 * answer in time is reported as `timedOut` and the worker is replaced. Its stack is as small
 * as the main thread's (about 1 MB), so recursion fails at the depth it would in the product.
 */
export class TimeBox {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, (result: CallResult) => void>();
  private readonly limitMs: number;

  constructor(limitMs: number) {
    this.limitMs = limitMs;
  }

  private start(): Worker {
    const worker = new Worker(new URL('./sync-worker.ts', import.meta.url), { resourceLimits: { stackSizeMb: 1 } });
    worker.on('message', ({ id, result }: { id: number; result: CallResult }) => {
      this.waiting.get(id)?.(result);
      this.waiting.delete(id);
    });
    worker.on('error', (error) => {
      for (const resolve of this.waiting.values())
        resolve({ ok: false, error: { name: 'WorkerError', className: 'Error', message: String(error), isImlError: false, isPagerlyError: false } });
      this.waiting.clear();
      this.worker = undefined;
    });
    worker.unref();
    return worker;
  }

  call(call: SyncCall): Promise<Outcome> {
    this.worker ??= this.start();
    const worker = this.worker;
    this.next += 1;
    const id = this.next;
    const started = performance.now();
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
        resolve({ timedOut: true, ms: performance.now() - started });
      }, this.limitMs);
      this.waiting.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      worker.postMessage({ id, call });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}
