/**
 * The three date forms RFC 9110 §5.6.7 lets a recipient read: IMF-fixdate
 * ("Sun, 06 Nov 1994 08:49:37 GMT"), the obsolete RFC 850 form ("Sunday, 06-Nov-94 08:49:37 GMT")
 * and asctime ("Sun Nov  6 08:49:37 1994"). Anything else is not a date, however lenient
 * `Date.parse` would be about it.
 */
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
const HTTP_DATES = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`),
  new RegExp(`^${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`),
  new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`),
];

/**
 * `Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); anything else
 * (a word, a negative number, a key a hostile server echoes) is dropped as if absent. The one
 * parser of every surface: whatever comes back is a number, never the header's text.
 */
export function retryAfterSeconds(value: string | string[] | undefined, now: Date = new Date()): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) {
    const seconds = Number(raw);
    return Number.isSafeInteger(seconds) ? seconds : undefined; // 10^309 is not a wait
  }
  if (!HTTP_DATES.some((form) => form.test(raw))) return undefined;
  // asctime has no zone: it is GMT too.
  const date = Date.parse(/GMT$/.test(raw) ? raw : `${raw} GMT`);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

/**
 * When to try again, as a person reads it: "in 30 s", "in 5 min", "in 24 h", or past two days
 * the time itself, "after 2099-01-01 00:00 UTC" (a wait of 2,275,376,491 s means nothing to anyone).
 */
export function retryWhen(seconds: number, now: Date = new Date()): string {
  if (seconds <= 90) return `in ${seconds} s`;
  if (seconds < 90 * 60) return `in ${Math.round(seconds / 60)} min`;
  if (seconds <= 48 * 3600) return `in ${Math.round(seconds / 3600)} h`;
  const at = new Date(now.getTime() + seconds * 1000);
  if (Number.isNaN(at.getTime())) return 'much later';
  return `after ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
