/** The documented error body: `[{"Error": "API Key is not valid"}]`. */
export const INVALID_KEY_TEXT = 'API Key is not valid';
export type ErrorBody = [{ Error: string }];
export const errorBody = (text: string): ErrorBody => [{ Error: text }];

/** The service's own text from an error body of the documented shape, or of a few common others. */
export function errorText(parsed: unknown): string | undefined {
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  if (first && typeof first === 'object') {
    for (const key of ['Error', 'error', 'message', 'detail']) {
      const value = (first as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim()) return value.trim();
    }
  }
  return undefined;
}
