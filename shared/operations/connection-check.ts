import type { PagerlyClient } from '../client.ts';
import { endpoints } from '../catalog/endpoints.ts';
import { InvalidInputError, isPagerlyError, NotFoundError } from '../errors.ts';
import { type ApiSettings, type Bases, DEFAULT_BASE_URL, ROTATIONS_SEGMENT, resolveBases } from '../settings.ts';
import { connection } from './connection.ts';

/** How a surface names its two base settings to its user: n8n's credential fields, the CLI's flags. */
export interface BaseSettingNames {
  /** The API base, e.g. n8n's "Base URL" or the CLI's `--base-url (or PAGERLY_BASE_URL)`. */
  readonly api: string;
  /** The rotations base, which defaults to the API base followed by `/pagerly`. */
  readonly rotations: string;
}

/**
 * Checks a connection the way every surface does, with a call at each base: the key check at
 * the API base (it also says whose key it is), then the documented team list at the rotations
 * base. The key check alone passes with the API base set to the rotations address, after which
 * every team lookup goes to `/pagerly/pagerly/…` and fails. Resolves to the key check's answer
 * (for a label naming the key's owner). A 404 at either base is a `NotFoundError` that names
 * the setting to fix, in the surface's words; any other failure is the API module's own error,
 * unchanged.
 */
export async function proveConnection(
  client: Pick<PagerlyClient, 'checkApiKey' | 'listTeams' | 'redact'>,
  settings: Pick<ApiSettings, 'baseUrl' | 'rotationsBaseUrl'>,
  names: BaseSettingNames,
): Promise<Record<string, unknown>> {
  const bases = basesNamed(settings, names);
  const rotationsGiven = Boolean(settings.rotationsBaseUrl?.trim());
  const check = await namingTheSetting(client.checkApiKey(), () =>
    client.redact(
      `Nothing answers the key check at ${bases.api}${endpoints[connection.testEndpoint].path} (HTTP 404). Check ${names.api}: it is the address of the Pagerly API, e.g. ${DEFAULT_BASE_URL}.`,
    ),
  );
  const lookedUp = `${bases.rotations}${endpoints.listTeams.path}`;
  await namingTheSetting(client.listTeams(), () =>
    client.redact(
      rotationsGiven
        ? `The API key is valid, but nothing answers the team list at ${lookedUp} (HTTP 404). Check ${names.rotations}: it is where teams and who is on call are looked up, e.g. ${DEFAULT_BASE_URL}${ROTATIONS_SEGMENT}; if not set, ${names.api} followed by ${ROTATIONS_SEGMENT}.`
        : `The API key is valid, but nothing answers the team list at ${lookedUp} (HTTP 404): teams are looked up at ${names.api} followed by ${ROTATIONS_SEGMENT}. Check ${names.api}: it is the address of the Pagerly API (e.g. ${DEFAULT_BASE_URL}), not the address of teams and rotations (${DEFAULT_BASE_URL}${ROTATIONS_SEGMENT}).`,
    ),
  );
  return check as Record<string, unknown>;
}

/**
 * The bases, or the error that says which setting is not a usable URL, in the surface's words
 * (the API module names its own `baseUrl` and `rotationsBaseUrl`). Nothing is sent.
 */
export function basesNamed(settings: Pick<ApiSettings, 'baseUrl' | 'rotationsBaseUrl'>, names: BaseSettingNames): Bases {
  try {
    return resolveBases(settings);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const setting = error.problems[0]?.field === 'rotationsBaseUrl' ? names.rotations : names.api;
    throw new InvalidInputError(
      error.message.replace(/^\w+ must be/, `${setting} must be`),
      error.problems.map((problem) => ({ ...problem, field: setting })),
      'input',
    );
  }
}

async function namingTheSetting<T>(call: Promise<T>, message: () => string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isPagerlyError(error) && error.code === 'not_found') {
      throw new NotFoundError(message(), { endpoint: error.endpoint, status: error.status, serviceMessage: error.serviceMessage });
    }
    throw error;
  }
}
