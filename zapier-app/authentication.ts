import type { Authentication, Bundle, ZObject } from 'zapier-platform-core';
import { connection } from '../shared/operations/connection.ts';
import { type BaseSettingNames, proveConnection } from '../shared/operations/connection-check.ts';
import { connectionLabel } from './connection-label.ts';
import { zapierText } from './operation-names.ts';
import { clientForBundle, withZapierErrors } from './pagerly-client.ts';

/** Where the app's bases are set: its environment (`zapier env:set`), not a field a Zap builder fills in. */
export const ZAPIER_BASE_SETTINGS: BaseSettingNames = { api: 'PAGERLY_BASE_URL', rotations: 'PAGERLY_ROTATIONS_BASE_URL' };

/**
 * Zapier renders Markdown in help text: the place a help names (the dashboard) becomes a link to
 * it. A help that no longer names it is a build error, not a help without its link.
 */
export function linkedHelp(help: string, place: { name: string; url: string }): string {
  if (!help.includes(place.name)) throw new Error(`The help text does not name "${place.name}", so it cannot link to ${place.url}.`);
  return help.replace(place.name, `[${place.name}](${place.url})`);
}

/**
 * One API key. The test is the shared connection check: the key check (whose answer labels the
 * connection), then the team list at the rotations base, so a base that cannot serve teams
 * fails the connection rather than every team dropdown later.
 */
export const authentication = {
  type: 'custom' as const,
  fields: [
    {
      key: connection.apiKeyField.key,
      label: connection.apiKeyField.label,
      type: 'password' as const,
      required: true,
      helpText: linkedHelp(zapierText(connection.apiKeyField.help), connection.dashboard),
    },
  ],
  test: (z: ZObject, bundle: Bundle) =>
    withZapierErrors(z, () =>
      proveConnection(
        clientForBundle(z, bundle),
        { baseUrl: process.env.PAGERLY_BASE_URL, rotationsBaseUrl: process.env.PAGERLY_ROTATIONS_BASE_URL },
        ZAPIER_BASE_SETTINGS,
      ),
    ),
  // Zapier calls this with the test's answer as inputData; the key is passed only to keep it out of the label.
  // Async because core's types take a label function as a perform function, which returns a promise.
  connectionLabel: async (_z: ZObject, bundle: Bundle) => connectionLabel(bundle.inputData, bundle.authData.apiKey),
} satisfies Authentication;
