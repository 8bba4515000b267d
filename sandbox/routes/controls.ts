import { ServiceError } from '../http/service-error.ts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { check, describeProblems } from '../../shared/validation.ts';
import { faultSchema } from '../faults/fault-list.ts';
import { badInput } from '../http/service-error.ts';
import '../http/fastify-types.ts';

const clockChange = z.union([z.strictObject({ advanceMs: z.number().finite() }), z.strictObject({ set: z.iso.datetime({ offset: true }) })], {
  error: 'send {"advanceMs": <milliseconds>} or {"set": "<ISO 8601 time>"}',
});

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = check(schema, value);
  if (!result.ok) throw badInput(describeProblems(result.problems));
  return result.value;
}

/**
 * Controls of the sandbox itself, for demos and recordings: move the clock, inject faults.
 * They are not part of the service, so they take no API key; they exist only when the
 * sandbox is created with `controls: true` (the default).
 */
export const controlRoutes: FastifyPluginAsync = async (app) => {
  const nowAnswer = () => ({ now: app.sandboxClock.now().toISOString(), mode: app.sandboxClock.mode });

  app.get('/_sandbox/clock', async () => nowAnswer());

  app.post('/_sandbox/clock', async (request) => {
    const change = parse(clockChange, request.body);
    try {
      if ('advanceMs' in change) app.sandboxClock.advance(change.advanceMs);
      else app.sandboxClock.set(change.set);
    } catch (error) {
      if (error instanceof RangeError) throw new ServiceError(400, error.message);
      throw error;
    }
    app.onCallWatcher.check();
    return nowAnswer();
  });

  // What is waiting, so a test or a person can see which requests will meet a fault.
  app.get('/_sandbox/faults', async () => ({ faults: app.faultList.pending() }));

  app.post('/_sandbox/faults', async (request, reply) => {
    const fault = parse(faultSchema, request.body);
    app.faultList.inject(fault);
    reply.code(201);
    return { injected: fault };
  });

  app.delete('/_sandbox/faults', async () => {
    app.faultList.clear();
    return { cleared: true };
  });
};
