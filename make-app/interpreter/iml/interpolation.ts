import { ImlError } from './errors.ts';

/**
 * Splits a template string into literal text and `{{ … }}` expression sources. The end of
 * an expression is the first `}}` that is not inside a quoted string or backtick name, so
 * `{{ 'a}}b' }}` is one expression.
 */

export type Part = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'expression'; readonly source: string };

/** Index of the quote closing the one at `start`, honouring backslash escapes in strings; -1 if none. */
function closingQuote(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i += 1) {
    if (text[i] === '\\' && quote !== '`') i += 1;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** Index of the `}}` closing an expression that starts at `from`; -1 if there is none. */
function closingBraces(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    const c = text[i];
    if (c === '}' && text[i + 1] === '}') return i;
    if (c === "'" || c === '"' || c === '`') {
      const close = closingQuote(text, i);
      // An unterminated quote: end at the first "}}" and let the tokenizer name the real problem.
      if (close < 0) return text.indexOf('}}', from);
      i = close;
    }
  }
  return -1;
}

export function splitInterpolation(text: string): Part[] {
  const parts: Part[] = [];
  let textStart = 0;
  for (;;) {
    const open = text.indexOf('{{', textStart);
    if (open < 0) break;
    const close = closingBraces(text, open + 2);
    if (close < 0) throw new ImlError(`'{{' without a matching '}}' at column ${open + 1} in ${JSON.stringify(text)}`);
    if (open > textStart) parts.push({ kind: 'text', text: text.slice(textStart, open) });
    parts.push({ kind: 'expression', source: text.slice(open + 2, close) });
    textStart = close + 2;
  }
  if (textStart < text.length) parts.push({ kind: 'text', text: text.slice(textStart) });
  return parts;
}
