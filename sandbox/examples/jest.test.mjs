// An example test of code built on @pagerly/client, run by jest against an in-process sandbox:
//   npm install --save-dev jest @pagerly/sandbox @pagerly/client
//   node --experimental-vm-modules node_modules/jest/bin/jest.js   (jest runs ES modules so)
import { createClient } from '@pagerly/client';
import { createSandbox, demoKeys } from '@pagerly/sandbox';

let sandbox;
let pagerly;

beforeAll(async () => {
  // The demo world (Acme and Globex), on a clock that moves only when told: 08:00 UTC, an hour before a handover.
  sandbox = await createSandbox();
  const baseUrl = await sandbox.listen({ port: 0 });
  pagerly = createClient({ apiKey: demoKeys.acmeAdmin, baseUrl });
});

afterAll(() => sandbox.close());

test("lists the teams of the key's organization", async () => {
  const teams = await pagerly.listTeams();
  expect(teams.map((team) => team.name)).toEqual(['Platform', 'Payments', 'Mobile']);
});

test('sees the on-call person change at the 09:00 handover', async () => {
  const before = await pagerly.listOnCallUsers({ teamname: 'Platform' });
  await sandbox.clock.advance(60 * 60 * 1000);
  const after = await pagerly.listOnCallUsers({ teamname: 'Platform' });
  expect(after.map((person) => person.name)).not.toEqual(before.map((person) => person.name));
});

test('opens the incident though the service first answers 503 (the client tries again)', async () => {
  sandbox.faults.inject({ path: '/o/incident', status: 503, body: '{"error":"maintenance"}' });
  const incident = await pagerly.createOrUpdateIncident({ title: 'Deploy 4512 failed', severity: 'P2' });
  expect(incident.id).toMatch(/^inc_/);
});
