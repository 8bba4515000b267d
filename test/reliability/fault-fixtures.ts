import { afterEach } from '@jest/globals';
import type { FaultServer } from '../support/fault-server.ts';

/** An incident as the service answers it (assumption `incident-response`), for the fault suites' servers to serve. */
export const SAMPLE_INCIDENT = {
  id: 'inc_0001',
  title: 'Disk full',
  severity: 'P3',
  status: 'triggered',
  description: null,
  teamname: null,
  created_at: '2026-11-02T08:00:00Z',
  updated_at: '2026-11-02T08:00:00Z',
};

/** What the call rejected with; a call that succeeds fails the test. */
export const rejection = <E>(call: Promise<unknown>): Promise<E> =>
  call.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as E,
  );

/** The hostile servers a test file starts, closed after each test: push each one onto the list returned. */
export function serversClosedAfterEach(): FaultServer[] {
  const servers: FaultServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return servers;
}
