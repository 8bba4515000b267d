/** A piece of TypeScript written as is (an identifier such as `NodeConnectionTypes.Main`), not as a value. */
export interface Code {
  readonly code: string;
}
export const code = (text: string): Code => ({ code: text });
const isCode = (value: unknown): value is Code =>
  value !== null && typeof value === 'object' && Object.keys(value).length === 1 && typeof (value as Code).code === 'string';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A value as a TypeScript literal, indented, with bare keys where they are identifiers: the
 * form n8n's lint rules read node descriptions in (they walk the object literal of the class).
 */
export function tsLiteral(value: unknown, indent = ''): string {
  if (isCode(value)) return value.code;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return quote(value);
  const inner = `${indent}\t`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((element) => typeof element === 'string' || isCode(element))) return `[${value.map((element) => tsLiteral(element)).join(', ')}]`;
    return `[\n${value.map((element) => `${inner}${tsLiteral(element, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, v]) => `${inner}${IDENTIFIER.test(key) ? key : quote(key)}: ${tsLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}
