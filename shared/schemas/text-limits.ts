import { EMAIL_ADDRESS_MAX } from './email-address.ts';

/**
 * The longest text each field of the API takes, in characters (assumptions `incident-fields`,
 * `directory-upsert`, `subscribe`): the input schemas refuse longer ones, and where such a text
 * comes back anyway (a sandbox seed, the service's own data) it is shown shortened to this.
 */
export const LONGEST = {
  incidentId: 200,
  title: 255,
  severity: 32,
  description: 10_000,
  teamName: 200,
  personName: 200,
  email: EMAIL_ADDRESS_MAX,
  subscriptionId: 200,
} as const;
