import type { InputField } from './types.ts';

/**
 * The endpoint input from what the user filled in or mapped: only the declared fields, an
 * empty optional field left out (Zapier and n8n send "" for it), and a mapped number or true/false
 * sent as text, since every field of this API is text.
 */
export function endpointInput(fields: readonly InputField[], inputData: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const { key } of fields) {
    const value = inputData[key];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) continue;
    input[key] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
  return input;
}
