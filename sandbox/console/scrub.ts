import { redact } from '../../shared/redact.ts';

/** Anything shorter is no key of the sandbox's, and checking it would cost a hash for nothing. */
const SHORTEST_KEY = 8;
const REDACTED = '[redacted]';
/** Requests repeat the same few paths: each is scrubbed once, then looked up. */
const MEMO_SIZE = 2_000;
/** A journal line shows this much of a path at most (request lines may be 16 kB). */
const LONGEST_SHOWN = 500;

/** Takes every API key out of a path or URL before the console shows it; `presented` is the key the request sent, if any. */
export type Scrub = (text: string, presented?: string) => string;

/** No API key is longer; a longer header value is taken out whole, not piece by piece. */
const LONGEST_KEY = 128;

/**
 * The key a request presented, taken out of its own path. `redact` removes every form of every
 * start and end of it, which costs the square of its length: for any header value up to a key's
 * length; a longer value (anyone can send 16 kB) is removed as it is and URL-encoded.
 */
function withoutPresented(text: string, presented: string): string {
  if (presented.length <= LONGEST_KEY) return redact(text, [presented]);
  let encoded = presented;
  try {
    encoded = encodeURIComponent(presented);
  } catch {
    // A lone surrogate cannot be encoded, so it cannot appear encoded either.
  }
  return text.split(presented).join(REDACTED).split(encoded).join(REDACTED);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A path or URL as the console may show it. Every key of the seed is removed in every form
 * `redact` knows (encoded, base64, hex, a start or end of 8 characters or more), and so is the
 * key the request presented (a real key sent to the sandbox by mistake is still a key); then
 * each part between `/ ? & = # : @` that the key ring takes for a key (one added since) is
 * `[redacted]`. Long texts are cut after scrubbing, never before.
 */
export function keyScrubber(seedKeys: readonly string[], isKey: (text: string) => boolean): Scrub {
  const memo = new Map<string, string>();
  return (text, presented) => {
    const memoKey = `${presented ?? ''}\n${text}`;
    const known = memo.get(memoKey);
    if (known !== undefined) return known;
    let scrubbed = redact(text, seedKeys);
    if (presented && !seedKeys.includes(presented)) scrubbed = withoutPresented(scrubbed, presented);
    scrubbed = scrubbed
      .split(/([/?&=#:@])/)
      .map((part) => (part.length >= SHORTEST_KEY && isKey(decoded(part)) ? REDACTED : part))
      .join('');
    if (scrubbed.length > LONGEST_SHOWN) scrubbed = `${scrubbed.slice(0, LONGEST_SHOWN)}…`;
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(memoKey, scrubbed);
    return scrubbed;
  };
}
