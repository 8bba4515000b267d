import { redact } from '../../shared/redact.ts';

/** Anything shorter is no key of the sandbox's, and checking it would cost a hash for nothing. */
const SHORTEST_KEY = 8;
const REDACTED = '[redacted]';

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A path or URL as the console may show it: every path segment and query value that is an API
 * key (`isKey`: the sandbox's own key ring, so a key sent in the wrong place is caught too) is
 * `[redacted]`, and so is the key the request presented, in any form `redact` knows. A key
 * that ends up in a URL by mistake is still a key.
 */
export function scrubKeys(url: string, isKey: (text: string) => boolean, presented?: string): string {
  const parts = url.split(/([/?&=#])/);
  const scrubbed = parts.map((part) => (part.length >= SHORTEST_KEY && !/^[/?&=#]$/.test(part) && isKey(decoded(part)) ? REDACTED : part)).join('');
  return presented ? redact(scrubbed, [presented]) : scrubbed;
}
