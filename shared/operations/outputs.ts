import type { DerivedField } from './item-shape.ts';
import type { OutputField } from './types.ts';

/** Output fields used by more than one operation, described once. */

export const onCallUserOutput: readonly OutputField[] = [
  { key: 'id', label: 'User ID', type: 'string' },
  { key: 'name', label: 'Name', type: 'string' },
  { key: 'email', label: 'E-mail', type: 'string' },
  { key: 'imageurl', label: 'Image URL', type: 'string' },
];

export const teamOutput: readonly OutputField[] = [
  { key: 'id', label: 'ID', type: 'string' },
  { key: 'name', label: 'Name', type: 'string' },
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

/**
 * Everyone in the list at `list` as flat fields a no-code user can map without line items:
 * `<prefix>_names`, `<prefix>_emails` ("Ada Lovelace, Grace Hopper") and `<prefix>_count`.
 */
export const peopleFields = (list: string, prefix: string, label: string): Record<string, DerivedField> => ({
  [`${prefix}_names`]: { join: list, field: 'name', separator: ', ', label: `${label}: Names` },
  [`${prefix}_emails`]: { join: list, field: 'email', separator: ', ', label: `${label}: E-mails` },
  [`${prefix}_count`]: { count: list, label: `${label}: Count` },
});
