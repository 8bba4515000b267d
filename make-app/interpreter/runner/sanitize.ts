/**
 * Make's `log.sanitize`: paths like ``request.headers.`x-apikey` `` whose values never reach
 * Make's logs. The runner keeps a log the same way, so tests can prove the key stays out.
 */
export function sanitizedHeaders(headers: Readonly<Record<string, string>>, sanitize: readonly string[]): Record<string, string> {
  const hidden = new Set(
    sanitize
      .filter((path) => path.toLowerCase().startsWith('request.headers.'))
      .map((path) => path.slice('request.headers.'.length).replace(/`/g, '').toLowerCase()),
  );
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, hidden.has(name.toLowerCase()) ? '[sanitized]' : value]));
}
