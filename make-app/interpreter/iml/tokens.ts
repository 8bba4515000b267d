import { imlErrorAt } from './errors.ts';

/**
 * Tokenizer for one expression (the text between `{{` and `}}`). Constructs outside the
 * subset that are recognisable by their characters (`=`, `?:`, `;`, `{`, `...`) are
 * refused here, by name, so the message says what was written rather than "unexpected".
 */

export type Punctuator = '.' | ',' | '(' | ')' | '[' | ']' | '!' | '*' | '/' | '%' | '+' | '-' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||';

export type Token =
  | { readonly kind: 'number'; readonly value: number; readonly start: number }
  | { readonly kind: 'string'; readonly value: string; readonly start: number }
  /** Identifiers, including the keywords true/false/null/undefined (the parser tells them apart). */
  | { readonly kind: 'name'; readonly value: string; readonly start: number }
  /** A backtick-quoted property name: parameters.`First Name`. */
  | { readonly kind: 'quotedName'; readonly value: string; readonly start: number }
  | { readonly kind: 'punctuator'; readonly value: Punctuator; readonly start: number }
  /** `/pattern/flags` as a function argument: Make's `replace` takes one (help.make.com, text functions). */
  | { readonly kind: 'regex'; readonly pattern: string; readonly flags: string; readonly start: number }
  | { readonly kind: 'end'; readonly start: number };

type SymbolRule = { readonly text: Punctuator; readonly refusal?: undefined } | { readonly text: string; readonly refusal: string };

// Longest first, so '===' is refused before '==' could match and '==' wins over '='.
const SYMBOLS: readonly SymbolRule[] = (
  [
    { text: '...', refusal: 'Spread \'...\' is only supported as an object key written exactly "{{...}}"' },
    { text: '===', refusal: "Operator '===' is not supported (use '==', which is already strict)" },
    { text: '!==', refusal: "Operator '!==' is not supported (use '!=', which is already strict)" },
    { text: '=>', refusal: "Lambdas ('=>') are not supported" },
    { text: '<=' },
    { text: '>=' },
    { text: '==' },
    { text: '!=' },
    { text: '&&' },
    { text: '||' },
    { text: '=', refusal: "Operator '=' is not supported (there is no assignment; compare with '==')" },
    { text: '?', refusal: "The ternary operator '?:' is not supported (use if(cond, a, b))" },
    { text: ':', refusal: "':' is not supported (no ternary operator, no object literals)" },
    { text: ';', refusal: "';' is not supported (separate function arguments with ',')" },
    { text: '{', refusal: "Object literals ('{...}') are not supported" },
    { text: '}', refusal: "'}' is not supported (no object literals)" },
    { text: '&', refusal: "Operator '&' is not supported (use '&&')" },
    { text: '|', refusal: "Operator '|' is not supported (use '||')" },
    { text: '.' },
    { text: ',' },
    { text: '(' },
    { text: ')' },
    { text: '[' },
    { text: ']' },
    { text: '!' },
    { text: '*' },
    { text: '/' },
    { text: '%' },
    { text: '+' },
    { text: '-' },
    { text: '<' },
    { text: '>' },
  ] satisfies SymbolRule[]
).sort((a, b) => b.text.length - a.text.length);

const NUMBER = /[0-9]+(?:\.[0-9]+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const WHITESPACE = /[ \t\r\n]+/y;
const ESCAPABLE = new Set(['\\', "'", '"']);

function matchAt(pattern: RegExp, source: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(source)?.[0];
}

/** Reads a quoted string starting at `start` (on the quote); returns its value and the index after it. */
function readString(source: string, start: number): { value: string; next: number } {
  const quote = source[start];
  let value = '';
  let i = start + 1;
  while (i < source.length) {
    const c = source[i]!;
    if (c === quote) return { value, next: i + 1 };
    if (c === '\\') {
      const escaped = source[i + 1];
      if (escaped === undefined) break;
      if (!ESCAPABLE.has(escaped)) {
        throw imlErrorAt(`Unsupported escape '\\${escaped}' in a string (only \\' \\" and \\\\ are supported)`, source, i);
      }
      value += escaped;
      i += 2;
      continue;
    }
    value += c;
    i += 1;
  }
  throw imlErrorAt('Unterminated string', source, start);
}

/** The flags Make names for a `replace` pattern: g, i, m. */
const REGEX_FLAGS = /[gim]*/y;

/** Reads `/pattern/flags` starting at `start` (on the slash). */
function readRegex(source: string, start: number): { pattern: string; flags: string; next: number } {
  for (let i = start + 1; i < source.length; i += 1) {
    if (source[i] === '\\') i += 1;
    else if (source[i] === '/') {
      const flags = matchAt(REGEX_FLAGS, source, i + 1) ?? '';
      if (matchAt(NAME, source, i + 1 + flags.length)) throw imlErrorAt('A pattern takes only the flags g, i and m', source, i + 1);
      if (i === start + 1) throw imlErrorAt('Empty pattern', source, start);
      return { pattern: source.slice(start + 1, i), flags, next: i + 1 + flags.length };
    }
  }
  throw imlErrorAt('Unterminated pattern', source, start);
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const space = matchAt(WHITESPACE, source, i);
    if (space) {
      i += space.length;
      continue;
    }
    const c = source[i]!;
    const number = matchAt(NUMBER, source, i);
    if (number) {
      // "1abc" or "1_" would otherwise become a number followed by a name.
      if (matchAt(NAME, source, i + number.length)) throw imlErrorAt(`Invalid number '${number}${source[i + number.length]}…'`, source, i);
      tokens.push({ kind: 'number', value: Number(number), start: i });
      i += number.length;
      continue;
    }
    const name = matchAt(NAME, source, i);
    if (name) {
      tokens.push({ kind: 'name', value: name, start: i });
      i += name.length;
      continue;
    }
    if (c === "'" || c === '"') {
      const { value, next } = readString(source, i);
      tokens.push({ kind: 'string', value, start: i });
      i = next;
      continue;
    }
    if (c === '`') {
      const close = source.indexOf('`', i + 1);
      if (close < 0) throw imlErrorAt('Unterminated backtick name', source, i);
      if (close === i + 1) throw imlErrorAt('Empty backtick name', source, i);
      tokens.push({ kind: 'quotedName', value: source.slice(i + 1, close), start: i });
      i = close + 1;
      continue;
    }
    // A slash where an argument starts is a pattern; anywhere else it divides.
    const previous = tokens.at(-1);
    if (c === '/' && previous?.kind === 'punctuator' && (previous.value === '(' || previous.value === ',')) {
      const { pattern, flags, next } = readRegex(source, i);
      tokens.push({ kind: 'regex', pattern, flags, start: i });
      i = next;
      continue;
    }
    const symbol = SYMBOLS.find((s) => source.startsWith(s.text, i));
    if (!symbol) throw imlErrorAt(`Unexpected character '${c}'`, source, i);
    if (symbol.refusal !== undefined) throw imlErrorAt(symbol.refusal, source, i);
    tokens.push({ kind: 'punctuator', value: symbol.text, start: i });
    i += symbol.text.length;
  }
  tokens.push({ kind: 'end', start: source.length });
  return tokens;
}

/** How a token is named in messages. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'number':
      return `number ${token.value}`;
    case 'string':
      return `string ${JSON.stringify(token.value)}`;
    case 'name':
      return `name '${token.value}'`;
    case 'quotedName':
      return `backtick name \`${token.value}\``;
    case 'punctuator':
      return `'${token.value}'`;
    case 'regex':
      return `pattern /${token.pattern}/${token.flags}`;
    case 'end':
      return 'the end of the expression';
  }
}
