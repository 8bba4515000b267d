import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { NO_REDIRECTS, SANITIZE_KEY } from './communication.ts';
import { responseHandling } from './response-directives.ts';
import { keyHeader } from './iml-key.ts';

/** `general/base.iml.json`: what every module and RPC inherits. */
export function base(): Record<string, unknown> {
  return {
    baseUrl: DEFAULT_BASE_URL,
    headers: { [API_KEY_HEADER]: keyHeader('connection.apiKey'), Accept: 'application/json' },
    ...NO_REDIRECTS,
    response: responseHandling(),
    log: SANITIZE_KEY,
  };
}
