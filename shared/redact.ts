const REDACTED = '[redacted]';
/** Secrets shorter than this are not worth masking and would shred ordinary text. */
export const MIN_SECRET = 4;
/**
 * A piece of a secret this long, at its start or end, counts as the secret: a service that
 * echoes a truncated key ("API key SECRET-KEY-3f9a… is not valid") still gives most of it away.
 */
export const MIN_FRAGMENT = 8;

/**
 * Every way a secret shows up in a text that came from outside: as is; JSON-escaped (a `"` or
 * `\` in the key is `\"` / `\\` inside a JSON string, and so in any body we excerpt);
 * percent-encoded as a URL component; form-encoded (`+` for a space, and the stricter set of
 * `application/x-www-form-urlencoded`, which also escapes `!'()~`); and its bytes in base64,
 * base64url or hex (`byteForms`).
 */
export function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  let url: string;
  let form: string;
  try {
    url = encodeURIComponent(secret);
    form = new URLSearchParams({ k: secret }).toString().slice(2);
  } catch {
    // A broken surrogate cannot be encoded, so it cannot appear encoded either.
    url = form = secret;
  }
  return [...new Set([secret, json, url, url.replace(/%20/g, '+'), form, ...byteForms(secret)])];
}

/**
 * The key's bytes as a library dumping them prints them: base64 and base64url (without the
 * padding, so an echo that drops it is caught too) and hex in either case. A service or a proxy
 * that echoes the header it got as bytes shows it so, and a runner only masks what it is told.
 */
function byteForms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const base64 = btoa(binary).replace(/=+$/, '');
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return [base64, base64.replace(/\+/g, '-').replace(/\//g, '_'), hex, hex.toUpperCase()];
}

/**
 * What `redact` removes for these secrets: every form of each, and every form of each start or
 * end of `MIN_FRAGMENT` characters or more of the secret itself (8 characters of the key, however
 * encoded), longest first (so a longer piece is never cut by a shorter one and left half-shown).
 */
function piecesOf(secrets: readonly (string | undefined)[]): Pieces {
  // Building the pieces encodes every start and end of every key five ways: done once per set
  // of keys, as the same key is redacted again and again (every error, every redirect check).
  const cacheKey = JSON.stringify(secrets);
  const cached = piecesCache.get(cacheKey);
  if (cached) {
    // Most recently used last, so the oldest is the first one dropped.
    piecesCache.delete(cacheKey);
    piecesCache.set(cacheKey, cached);
    return cached;
  }
  const pieces = buildPieces(secrets);
  piecesCache.set(cacheKey, pieces);
  if (piecesCache.size > PIECES_CACHE_SIZE) piecesCache.delete(piecesCache.keys().next().value!);
  return pieces;
}

/** A handful of key sets: one process serves a few connections at a time; a bound keeps a long-lived one small. */
const PIECES_CACHE_SIZE = 32;
const piecesCache = new Map<string, Pieces>();

/**
 * The pieces, longest first, and a pattern of the start of each, as long as the shortest piece:
 * a text that holds a piece holds its start, so a text with none of them (nearly every text) is
 * told in one scan of it, not one search per piece (hundreds for a few keys).
 */
interface Pieces {
  readonly all: readonly string[];
  readonly starts: RegExp | undefined;
}

function buildPieces(secrets: readonly (string | undefined)[]): Pieces {
  const pieces = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET) continue;
    const parts = [secret];
    for (let length = MIN_FRAGMENT; length < secret.length; length += 1) parts.push(secret.slice(0, length), secret.slice(-length));
    for (const part of parts) for (const form of secretForms(part)) pieces.add(form);
  }
  const all = [...pieces].sort((a, b) => b.length - a.length);
  if (all.length === 0) return { all, starts: undefined };
  const width = all.at(-1)!.length;
  const starts = [...new Set(all.map((piece) => piece.slice(0, width).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))];
  return { all, starts: new RegExp(starts.join('|')) };
}

/**
 * Removes every secret from a text that came from outside (a service's error text, a body
 * excerpt, a transport's message) before it goes into an error, a log or a label: each form of
 * it (`secretForms`), and every form of any start or end of it of `MIN_FRAGMENT` characters or more (a
 * truncated echo). Cut a text only after this (see `excerpt`).
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  return redactPieces(text, piecesOf(secrets));
}

/** `redact` for one set of secrets that does not change (a process's own keys): their pieces built once, for every text after. */
export function redactorFor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const pieces = buildPieces(secrets);
  return (text) => redactPieces(text, pieces);
}

function redactPieces(text: string, pieces: Pieces): string {
  let result = text;
  if (pieces.starts?.test(text)) for (const piece of pieces.all) if (result.includes(piece)) result = result.split(piece).join(REDACTED);
  // Pieces of two keys side by side (or a key cut in two) read as one redaction.
  return result.replace(/(?:\[redacted\])+/g, REDACTED);
}

/** True when a text holds a secret in any form `redact` removes: such a text is not shown, even redacted, as a label. */
export function holdsSecret(text: string, secrets: readonly (string | undefined)[]): boolean {
  return redact(text, secrets) !== text;
}

/** A short, single-line excerpt of a body for an error message: redacted first, then cut. */
export function excerpt(text: string, secrets: readonly (string | undefined)[], max = 120): string {
  const oneLine = redact(text, secrets).replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/**
 * A parsed answer with `redact` applied to every text in it, names and values: a 2xx a write
 * passes on to a step, a model or a file is service text like an error's, and one that echoes
 * the key must not carry it on. Parsed JSON is at most `MAX_JSON_DEPTH` deep, so this recursion is bounded.
 */
export function redactDeep(value: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [redact(name, secrets), redactDeep(item, secrets)]));
  return value;
}
