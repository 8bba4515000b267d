import type { Authentication, Bundle, ZObject } from 'zapier-platform-core';
import { connection } from '../shared/operations/connection.ts';
import { connectionLabel } from './connection-label.ts';
import { callPagerly } from './pagerly-client.ts';

/** One API key, checked with GET /o/test/apikey. */
export const authentication = {
  type: 'custom' as const,
  fields: [
    {
      key: connection.apiKeyField.key,
      label: connection.apiKeyField.label,
      type: 'password' as const,
      required: true,
      helpText: connection.apiKeyField.help,
    },
  ],
  test: (z: ZObject, bundle: Bundle) => callPagerly(z, bundle, connection.testEndpoint, {}),
  // Zapier calls this with the test's answer as inputData; the key is passed only to keep it out of the label.
  // Async because core's types take a label function as a perform function, which returns a promise.
  connectionLabel: async (_z: ZObject, bundle: Bundle) => connectionLabel(bundle.inputData, bundle.authData.apiKey),
} satisfies Authentication;
