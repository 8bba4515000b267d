import type { ActionOperation } from './types.ts';
import { ADMIN_ONLY_NOTE, emailField, phoneField, roleField } from './fields.ts';
import { directoryEntryOutput, directoryEntrySample } from './outputs.ts';

/** The four directory actions: one description each, sharing fields and output. */

export const upsertDirectoryEntry: ActionOperation = {
  kind: 'action',
  key: 'upsert_directory_entry',
  makeName: 'upsertDirectoryEntry',
  endpoint: 'upsertDirectoryEntry',
  noun: 'Directory Entry',
  label: 'Create or Replace Directory Entry',
  makeLabel: 'Create or replace a directory entry',
  description: `Adds a person to the on-call directory, or replaces their name and phone number if the e-mail is already there. An omitted phone number is cleared; an omitted role is kept. ${ADMIN_ONLY_NOTE}`,
  inputFields: [
    emailField('The person\'s e-mail: it identifies the entry.'),
    { key: 'name', label: 'Name', type: 'string', required: true, example: 'Alex Morgan', help: 'Full name as the on-call schedule should show it.' },
    phoneField(false),
    roleField(false, 'Left empty, a new entry is a User and an existing entry keeps its role.'),
  ],
  outputFields: directoryEntryOutput,
  sample: directoryEntrySample,
};

export const updateDirectoryPhone: ActionOperation = {
  kind: 'action',
  key: 'update_directory_phone',
  makeName: 'updateDirectoryPhone',
  endpoint: 'updateDirectoryPhone',
  noun: 'Phone Number',
  label: 'Update Phone Number',
  makeLabel: 'Update a phone number',
  description: 'Changes the phone number the service calls or texts when this person is paged.',
  inputFields: [emailField('The e-mail of the directory entry to change.'), phoneField(true)],
  outputFields: directoryEntryOutput,
  sample: directoryEntrySample,
};

export const changeDirectoryRole: ActionOperation = {
  kind: 'action',
  key: 'change_directory_role',
  makeName: 'changeDirectoryRole',
  endpoint: 'changeDirectoryRole',
  noun: 'Role',
  label: 'Change Role',
  makeLabel: 'Change a role',
  description: `Makes a person an org admin or a user. The owner's role cannot be changed here. ${ADMIN_ONLY_NOTE}`,
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
  key: 'remove_directory_entry',
  makeName: 'removeDirectoryEntry',
  endpoint: 'removeDirectoryEntry',
  noun: 'Directory Entry',
  label: 'Remove Directory Entry',
  makeLabel: 'Remove a directory entry',
  description: `Removes a person from the on-call directory: they leave every rotation and their API keys stop working. The owner cannot be removed. ${REMOVES_OWN_KEY_NOTE} ${ADMIN_ONLY_NOTE}`,
  inputFields: [emailField(`The e-mail of the directory entry to remove. ${REMOVES_OWN_KEY_NOTE}`)],
  outputFields: [
    { key: 'email', label: 'E-mail', type: 'string' },
    { key: 'removed', label: 'Removed', type: 'boolean' },
  ],
  sample: { email: 'katherine@acme.example', removed: true },
};
