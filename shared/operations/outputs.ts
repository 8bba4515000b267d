import type { OutputField } from './types.ts';

/** Output fields used by more than one operation, described once. */

export const onCallUserOutput: readonly OutputField[] = [
  { key: 'id', label: 'User ID', type: 'string' },
  { key: 'name', label: 'Name', type: 'string' },
  { key: 'email', label: 'E-mail', type: 'string' },
  { key: 'imageurl', label: 'Image URL', type: 'string' },
];

export const directoryEntryOutput: readonly OutputField[] = [
  { key: 'id', label: 'User ID', type: 'string' },
  { key: 'email', label: 'E-mail', type: 'string' },
  { key: 'name', label: 'Name', type: 'string' },
  { key: 'phone', label: 'Phone number', type: 'string' },
  { key: 'role', label: 'Role', type: 'string' },
  { key: 'imageurl', label: 'Image URL', type: 'string' },
];

export const directoryEntrySample = {
  id: 'usr_katherine',
  email: 'katherine@acme.example',
  name: 'Katherine Johnson',
  phone: '+14155550103',
  role: 'user',
  imageurl: 'https://images.acme.example/katherine.png',
};
