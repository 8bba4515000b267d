/**
 * One shared instance of each plain-data definition value (a field, a choice list) that several
 * operations write alike. zapier-platform-core deep-copies the whole definition on every call
 * (lodash's cloneDeep, which copies an object it meets twice only once), then compiles and
 * freezes the copy, so each distinct object costs every call. Nothing changes a definition
 * value after it is built: core works on its copy.
 */
const interned = new Map<string, object>();

export function intern<T extends object>(value: T): T {
  const key = JSON.stringify(value);
  const known = interned.get(key);
  if (known) return known as T;
  interned.set(key, value);
  return value;
}
