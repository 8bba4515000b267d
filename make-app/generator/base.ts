import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { NO_REDIRECTS, SANITIZE_KEY } from './communication.ts';
import { responseHandling } from './response-directives.ts';
import { keyHeader, keyTemp } from './iml-key.ts';

/**
 * `general/base.iml.json`: what every module and RPC inherits (Best practices › Base: the root
 * URL, the authorization, the error handling and the sanitization): the key made once (`temp`),
 * checked once (its header), hidden from Make's logs (`log.sanitize`).
 */
export function base(): Record<string, unknown> {
  return {
    baseUrl: DEFAULT_BASE_URL,
    temp: keyTemp('connection.apiKey'),
    headers: { [API_KEY_HEADER]: keyHeader(), Accept: 'application/json' },
    ...NO_REDIRECTS,
    response: responseHandling(),
    log: SANITIZE_KEY,
  };
}
