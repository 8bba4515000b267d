import type { ActionOperation } from './types.ts';
import { ADMIN_ONLY_NOTE, emailField, phoneField, roleField } from './fields.ts';
import { GROUPS } from './groups.ts';
import { THIS_STEP } from './step-mentions.ts';
import { directoryEntryOutput, directoryEntrySample } from './outputs.ts';

/**
 * The directory actions: one description each, sharing fields and output. The service has one
 * "create or replace" endpoint (`POST /o/oncalluser`, assumption `directory-upsert`); Create
 * sends it what the user gave, Update reads the entry first and keeps what was left empty
 * (assumption `directory-create-update`).
 */

const nameField = (required: boolean, help: string) => ({ key: 'name', label: 'Name', type: 'string', required, example: 'Alex Morgan', help }) as const;

export const createDirectoryEntry: ActionOperation = {
  kind: 'action',
  id: 'createDirectoryEntry',
  endpoint: 'upsertDirectoryEntry',
  effect: 'create',
  group: GROUPS.directory,
  noun: 'Directory Entry',
  description: `Creates an entry in the on-call directory for a person, by e-mail. An entry that already has this e-mail is replaced. ${ADMIN_ONLY_NOTE}`,
  inputFields: [
    emailField("The person's e-mail: it identifies the entry."),
    nameField(true, 'Full name as the on-call schedule should show it.'),
    phoneField(false),
    roleField(false, 'Left empty, the person is a User.'),
  ],
  outputFields: directoryEntryOutput,
  sample: directoryEntrySample,
};

export const updateDirectoryEntry: ActionOperation = {
  kind: 'action',
  id: 'updateDirectoryEntry',
  endpoint: 'upsertDirectoryEntry',
  effect: 'update',
  group: GROUPS.directory,
  keepsOmitted: { read: 'getDirectoryEntry' },
  noun: 'Directory Entry',
  description: `Updates a person's name, phone number or role in the on-call directory, by e-mail. Fields left empty keep their values. ${ADMIN_ONLY_NOTE}`,
  inputFields: [
    emailField('The e-mail of the directory entry to change.'),
    nameField(false, 'The new full name. Leave empty to keep it.'),
    { ...phoneField(false), help: `${phoneField(false).help} Leave empty to keep it.` },
    roleField(false, 'Leave empty to keep the role.'),
  ],
  outputFields: directoryEntryOutput,
  sample: { ...directoryEntrySample, phone: '+14155550104' },
};

export const updateDirectoryPhone: ActionOperation = {
  kind: 'action',
  id: 'updateDirectoryPhone',
  endpoint: 'updateDirectoryPhone',
  effect: 'update',
  group: GROUPS.directory,
  noun: 'Phone Number',
  description: 'Updates the phone number the service calls or texts when this person is paged.',
  inputFields: [emailField('The e-mail of the directory entry to change.'), phoneField(true)],
  outputFields: directoryEntryOutput,
  sample: directoryEntrySample,
};

export const changeDirectoryRole: ActionOperation = {
  kind: 'action',
  id: 'changeDirectoryRole',
  endpoint: 'changeDirectoryRole',
  effect: 'update',
  group: GROUPS.directory,
  noun: 'Role',
  description: `Changes a person's role in the on-call directory to org admin or user. The owner's role cannot be changed here. ${ADMIN_ONLY_NOTE}`,
  inputFields: [emailField('The e-mail of the directory entry to change.'), roleField(true, 'Admins can manage the directory and generate API keys.')],
  outputFields: directoryEntryOutput,
  sample: { ...directoryEntrySample, role: 'admin' },
};

/**
 * Removing the entry of the key's own person revokes the key (assumption `directory-remove`):
 * the connection breaks mid-run. The apps cannot ask first (one call per action), so they say it.
 */
export const REMOVES_OWN_KEY_NOTE = 'Careful: removing the person whose API key this connection uses revokes that key, and this connection stops working.';

export const removeDirectoryEntry: ActionOperation = {
  kind: 'action',
  id: 'removeDirectoryEntry',
  endpoint: 'removeDirectoryEntry',
  effect: 'delete',
  group: GROUPS.directory,
  noun: 'Directory Entry',
  notFoundIsDone: { removed: false },
  irreversible: 'Removing cannot be undone: the person leaves every rotation and their API keys stop working for good.',
  description: `Removes a person from the on-call directory: they leave every rotation and their API keys stop working. The owner cannot be removed. Someone already removed is not an error: ${THIS_STEP} succeeds with Removed Now false. ${REMOVES_OWN_KEY_NOTE} ${ADMIN_ONLY_NOTE}`,
  inputFields: [emailField(`The e-mail of the directory entry to remove. ${REMOVES_OWN_KEY_NOTE}`)],
  outputFields: [
    { key: 'email', label: 'E-mail', type: 'string' },
    { key: 'removed', label: 'Removed Now', type: 'boolean' },
  ],
  sample: { email: 'katherine@acme.example', removed: true },
};
