/**
 * `text`, or its first `max` characters (UTF-16 units, as the API's limits count them) and `…`,
 * never cutting a surrogate pair in half. The feed bounds what it sends with it; the page, what
 * it shows.
 */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return `${text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max)}…`;
}
