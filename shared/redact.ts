const REDACTED = '[redacted]';

/**
 * Removes every secret from a text that came from outside (a service's error text, a body
 * excerpt, a transport's message) before it goes into an error, a log or a label.
 * Secrets shorter than 4 characters are not worth masking and would shred ordinary text.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** A short, single-line excerpt of a body for an error message. */
export function excerpt(text: string, secrets: readonly (string | undefined)[], max = 120): string {
  const oneLine = redact(text, secrets).replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}
