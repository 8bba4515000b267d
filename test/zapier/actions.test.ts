import { describe, expect, it } from '@jest/globals';
import { offlineNock } from '../support/offline-nock.ts';
import { expectAllUsed, recordedResponse, replay, replaySteps } from './replay.ts';
import { appTester, authData, performOf } from './support.ts';

offlineNock();

const createIncident = performOf('creates', 'create_incident');
const updateIncident = performOf('creates', 'update_incident');

describe('create_incident and update_incident', () => {
  // What Zapier sends for fields left empty: "", which must not reach the service.
  const emptyFields = { description: '', teamname: '', status: '', severity: '' };

  it('opens an incident, updates it by the id it returned, then resolves it', async () => {
    const scopes = replay('incident-create-update-resolve');
    const created = await appTester(createIncident, {
      authData,
      inputData: { ...emptyFields, title: 'Checkout latency above 2 s', severity: 'P2', teamname: 'Platform' },
    });
    const id = (created as { id: string }).id;
    const updated = await appTester(updateIncident, { authData, inputData: { ...emptyFields, id, title: 'Checkout latency above 2 s', severity: 'P1' } });
    const resolved = await appTester(updateIncident, { authData, inputData: { ...emptyFields, id, title: 'Checkout latency above 2 s', status: 'resolved' } });
    expectAllUsed(scopes);
    // A create's result says whether a note came with its id (assumption `created-id`): none, with one.
    expect([created, updated, resolved]).toEqual([0, 1, 2].map((i) => ({ ...(recordedResponse('incident-create-update-resolve', i) as object), note: '' })));
    expect(id).toBe('inc_0001');
    expect(resolved).toMatchObject({ id: 'inc_0001', status: 'resolved', severity: 'P1' });
  });
});

describe('directory actions (org admin key)', () => {
  it('creates an entry, sending a phone typed with spaces in international format', async () => {
    const scopes = replaySteps('directory-lifecycle', 0);
    const entry = await appTester(performOf('creates', 'create_directory_entry'), {
      authData,
      inputData: { email: 'new.hire@acme.example', name: 'New Hire', phone: '+1 415 555 0199', role: '' },
    });
    expectAllUsed(scopes);
    expect(entry).toEqual(recordedResponse('directory-lifecycle', 0));
  });

  it('updates the phone number', async () => {
    const scopes = replaySteps('directory-lifecycle', 1);
    const entry = await appTester(performOf('creates', 'update_directory_phone'), {
      authData,
      inputData: { email: 'new.hire@acme.example', phone: '+14155550198' },
    });
    expectAllUsed(scopes);
    expect(entry).toEqual(recordedResponse('directory-lifecycle', 1));
  });

  it('changes the role', async () => {
    const scopes = replaySteps('directory-lifecycle', 2);
    const entry = await appTester(performOf('creates', 'change_directory_role'), { authData, inputData: { email: 'new.hire@acme.example', role: 'admin' } });
    expectAllUsed(scopes);
    expect(entry).toEqual(recordedResponse('directory-lifecycle', 2));
  });

  it('creating an entry whose e-mail is taken replaces it, leaving out the empty phone and role', async () => {
    const scopes = replaySteps('directory-lifecycle', 3);
    const entry = await appTester(performOf('creates', 'create_directory_entry'), {
      authData,
      inputData: { email: 'new.hire@acme.example', name: 'New Hire (Platform)', phone: '', role: '  ' },
    });
    expectAllUsed(scopes);
    expect(entry).toEqual(recordedResponse('directory-lifecycle', 3));
  });

  it('removes an entry', async () => {
    const scopes = replaySteps('directory-lifecycle', 4);
    const removal = await appTester(performOf('creates', 'remove_directory_entry'), { authData, inputData: { email: 'new.hire@acme.example' } });
    expectAllUsed(scopes);
    expect(removal).toEqual({ email: 'new.hire@acme.example', removed: true });
  });

  it('sends only the declared fields, whatever else the bundle holds', async () => {
    const scopes = replaySteps('directory-lifecycle', 4);
    const removal = await appTester(performOf('creates', 'remove_directory_entry'), {
      authData,
      inputData: { email: 'new.hire@acme.example', name: 'stray', role: 'admin' },
    });
    expectAllUsed(scopes);
    expect(removal).toEqual(recordedResponse('directory-lifecycle', 4));
  });
});
