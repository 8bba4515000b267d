import { CertificateError } from '../errors.ts';
import type { OutgoingRequest } from './types.ts';

/**
 * The error codes Node gives a TLS connection whose certificate it could not verify: OpenSSL's
 * X509 verification results, named as Node names them (node's src/crypto/crypto_common.cc,
 * X509_ERROR_CODES), and Node's own host name check (ERR_TLS_CERT_ALTNAME_INVALID, tls.js).
 * The same certificate fails the same way on every try: this is configuration, not a fault.
 */
const WHY: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain holds a self-signed certificate that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its issuer is not a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT: 'its issuer is not a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its issuer is not a trusted authority',
  CERT_UNTRUSTED: 'it is not trusted',
  CERT_REJECTED: 'it was rejected',
  INVALID_CA: 'its authority is not a valid one',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  ERROR_IN_CERT_NOT_BEFORE_FIELD: 'its validity dates are malformed',
  ERROR_IN_CERT_NOT_AFTER_FIELD: 'its validity dates are malformed',
  CERT_REVOKED: 'it was revoked',
  CERT_SIGNATURE_FAILURE: 'its signature does not verify',
  UNABLE_TO_DECRYPT_CERT_SIGNATURE: 'its signature does not verify',
  UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY: "its issuer's key cannot be read",
  CERT_CHAIN_TOO_LONG: 'its chain is too long',
  PATH_LENGTH_EXCEEDED: 'its chain is too long',
  INVALID_PURPOSE: 'it is not meant for a server',
  UNABLE_TO_GET_CRL: 'its revocation list cannot be read',
  HOSTNAME_MISMATCH: 'it is for another host name',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it is for another host name',
  ERR_TLS_CERT_ALTNAME_FORMAT: 'its host names are malformed',
};

export const isCertificateCode = (code: unknown): code is string => typeof code === 'string' && Object.hasOwn(WHY, code);

/** The errors an error was caused by, itself first: `cause` links, a few deep (a cycle ends it). */
function chainOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let link = error; link !== null && typeof link === 'object' && chain.length < 8 && !chain.includes(link); ) {
    chain.push(link);
    link = (link as { cause?: unknown }).cause;
  }
  return chain;
}

const codeOf = (error: unknown) => (error as { code?: unknown }).code;

/**
 * The error code of a failed request, however the HTTP library wrapped it: got and node-fetch
 * (z.request) copy the system error's code onto theirs; undici (fetch) throws
 * `TypeError('fetch failed')` with the system error as its `cause`; n8n wraps its HTTP
 * library's error, code and all, in a `cause`. A certificate code anywhere in the chain wins
 * (an outer layer may add a generic code of its own); otherwise the first code there is that
 * `usable` accepts.
 */
export function failureCode(error: unknown, usable: (code: string) => boolean = () => true): string | undefined {
  const codes = chainOf(error)
    .map(codeOf)
    .filter((code): code is string => typeof code === 'string');
  return codes.find(isCertificateCode) ?? codes.find(usable);
}

/** The shared error for a request whose TLS handshake failed on the certificate: nothing was sent. */
export function certificateError(request: Pick<OutgoingRequest, 'url' | 'endpoint'>, code: string): CertificateError {
  const host = new URL(request.url).host;
  return new CertificateError(
    `The TLS certificate of ${host} could not be verified: ${WHY[code] ?? 'it failed verification'} (${code}); nothing was sent. Check the base URL; if the service uses a private certificate authority, give Node that authority's certificate in NODE_EXTRA_CA_CERTS. Retrying will not help.`,
    code,
    { endpoint: request.endpoint },
  );
}
