/**
 * Every way a key could be printed that the Action's tests look for: as is, JSON-escaped,
 * URL- and form-encoded (what the shared redaction knows), and base64 and hex (what a library
 * dumping bytes would print). Written here, not taken from shared/redact.ts, so the tests do
 * not grade the masking with its own answer.
 */
export function printedForms(key: string): string[] {
  const url = encodeURIComponent(key);
  return [
    ...new Set([
      key,
      JSON.stringify(key).slice(1, -1),
      url,
      url.replaceAll('%20', '+'),
      new URLSearchParams([['k', key]]).toString().slice(2),
      Buffer.from(key).toString('base64'),
      Buffer.from(key).toString('base64url'),
      Buffer.from(key).toString('hex'),
    ]),
  ];
}

/** The forms a runner must be told to mask: those a text the Action prints could carry. */
export function maskedForms(key: string): string[] {
  const url = encodeURIComponent(key);
  return [...new Set([key, JSON.stringify(key).slice(1, -1), url, url.replaceAll('%20', '+'), new URLSearchParams([['k', key]]).toString().slice(2)])];
}

/**
 * A key the sandbox refuses, sent (only visible ASCII, as a header carries), with characters
 * each encoding changes (quotes, a backslash, a slash, a plus sign, an ampersand), so a form
 * the masking misses would show.
 */
export const BAD_KEY = 'pgr_bad"key"\\/+&0123456789abcdef';
