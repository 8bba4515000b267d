/** `Retry-After` as seconds: either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(value: string | string[] | undefined, now: Date = new Date()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw?.trim()) return undefined;
  if (/^\d+$/.test(raw.trim())) {
    const seconds = Number(raw.trim());
    return Number.isSafeInteger(seconds) ? seconds : undefined; // 10^309 is not a wait
  }
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}
