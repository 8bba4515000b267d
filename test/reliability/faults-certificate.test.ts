import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CertificateError } from '../../shared/errors.ts';
import { failureCode } from '../../shared/http/certificate.ts';
import { noAnswerError } from '../../shared/http/failure.ts';
import { EXIT } from '../../cli/exit-codes.ts';
import { drivers } from '../surfaces/index.ts';
import type { Outcome } from '../surfaces/driver.ts';
import { makeCertificates, tlsServer } from '../support/tls-certificates.ts';

/**
 * A service whose TLS certificate the client cannot verify is a setting to fix, on every
 * surface: the shared CertificateError (code `certificate`), not retryable, nothing sent (so a
 * create never "may have been done"), a message naming the certificate's problem and
 * NODE_EXTRA_CA_CERTS (Node's documented way to trust a private authority:
 * nodejs.org/api/cli.html#node_extra_ca_certsfile). Real HTTPS servers on loopback with
 * certificates made by openssl; each surface through its real runtime (test/surfaces/).
 */
for (const driver of drivers) driver.useInTestFile?.();

const KEY = 'Tl5-certificate-test-key-7c1e9a';
let certs: ReturnType<typeof makeCertificates>;
let selfSigned: Awaited<ReturnType<typeof tlsServer>>;
let unknownAuthority: Awaited<ReturnType<typeof tlsServer>>;
let otherHost: Awaited<ReturnType<typeof tlsServer>>;

beforeAll(async () => {
  certs = makeCertificates();
  selfSigned = await tlsServer(certs.selfSigned);
  unknownAuthority = await tlsServer(certs.signed);
  otherHost = await tlsServer(certs.otherHost);
});
afterAll(async () => {
  await Promise.all([selfSigned.close(), unknownAuthority.close(), otherHost.close()]);
  certs.remove();
});

function expectCertificateFailure(outcome: Outcome, code: string): void {
  if (outcome.ok) throw new Error(`expected a certificate error, got success: ${JSON.stringify(outcome.value)}`);
  expect({ kind: outcome.kind, own: outcome.own }).toEqual({ kind: 'certificate', own: true });
  expect(outcome.message).toContain(code);
  expect(outcome.message).toContain('NODE_EXTRA_CA_CERTS');
  expect(outcome.message).not.toMatch(/had been sent|may have been done|temporary|try again/i);
  expect(JSON.stringify(outcome.shown)).not.toContain(KEY);
}

/**
 * Make runs the generated app on its own servers, with its own HTTP client and trust store:
 * the app (JSON and IML) has no code that sees a TLS failure, so there is nothing of ours to
 * classify it; the runner in make-app/interpreter/ models Make's answers, not its TLS.
 */
const MAKE_HAS_NO_CODE_HERE = 'Make';
const covered = drivers.filter((driver) => driver.name !== MAKE_HAS_NO_CODE_HERE);

it('covers every surface that runs our code on a connection', () => {
  expect(covered.map((driver) => driver.name)).toEqual(['typed client', 'typed client (fetch)', 'CLI', 'Zapier', 'n8n', 'MCP']);
});

describe.each(covered.map((driver) => [driver.name, driver] as const))('%s', (_name, driver) => {
  const servers = () =>
    [
      [selfSigned, 'DEPTH_ZERO_SELF_SIGNED_CERT'],
      [unknownAuthority, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'],
    ] as const;

  it('a read from a service with a self-signed certificate, or one from an unknown authority, is a certificate error', async () => {
    for (const [server, code] of servers()) {
      const outcome = await driver.read({ baseUrl: server.url, apiKey: KEY });
      expectCertificateFailure(outcome, code);
    }
  });

  it('a create is neither retried later nor said to have been sent: the handshake failed first', async () => {
    const before = selfSigned.requests();
    const outcome = await driver.write({ baseUrl: selfSigned.url, apiKey: KEY });
    expectCertificateFailure(outcome, 'DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(selfSigned.requests()).toBe(before);
    if (outcome.ok) return;
    // Zapier: not ThrottledError (Zapier would retry it later) nor HaltedError ("may have been done").
    expect(outcome.native).not.toMatch(/Throttled|Halted/);
    // The CLI: 78, sysexits' EX_CONFIG, and retryable false in its JSON.
    if (driver.name === 'CLI') {
      expect(outcome.shown.exitCode).toBe(EXIT.configuration);
      expect(JSON.parse(String(outcome.shown.stderr)).error).toMatchObject({ code: 'certificate', retryable: false, exitCode: 78 });
    }
  });
});

describe('the real CLI', () => {
  const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));
  const pagerly = (baseUrl: string, env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'teams', '--retries', '0'],
        { env: { PATH: process.env.PATH ?? '', PAGERLY_API_KEY: KEY, PAGERLY_BASE_URL: baseUrl, ...env } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  it('exits 78 naming the problem and NODE_EXTRA_CA_CERTS, never "temporary"', async () => {
    const r = await pagerly(unknownAuthority.url);
    expect(r.code).toBe(78);
    expect(r.stderr).toContain('its issuer is not a trusted authority (UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
    expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(r.stderr).not.toContain('temporary');
  });

  it('succeeds once the authority is given in NODE_EXTRA_CA_CERTS, as the message says', async () => {
    const r = await pagerly(unknownAuthority.url, { NODE_EXTRA_CA_CERTS: certs.authority.certFile });
    expect(r).toMatchObject({ code: 0, stdout: 'Platform  team_platform\n' });
  });

  it('a trusted certificate for another host name is a certificate error too (78)', async () => {
    const r = await pagerly(otherHost.url, { NODE_EXTRA_CA_CERTS: certs.authority.certFile });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain('it is for another host name (ERR_TLS_CERT_ALTNAME_INVALID)');
  });
});

describe('the shared classifier', () => {
  const request = { url: 'https://api.example/pagerly/o/incident', endpoint: 'createOrUpdateIncident' as const, idempotent: false };

  it("reads the code through undici's cause chain, as a fetch-based transport meets it", async () => {
    const error = await fetch(`${selfSigned.url}/o/zapier/allteams`).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect((error as { code?: unknown }).code).toBeUndefined();
    expect(failureCode(error)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it.each([
    [
      'got (code copied onto its RequestError)',
      Object.assign(new Error('self-signed certificate'), { name: 'RequestError', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
    ],
    [
      'node-fetch, under z.request (code and errno on its FetchError)',
      Object.assign(new Error('request failed, reason: certificate has expired'), {
        name: 'FetchError',
        type: 'system',
        code: 'CERT_HAS_EXPIRED',
        errno: 'CERT_HAS_EXPIRED',
      }),
    ],
    [
      'undici (fetch failed, the system error as cause)',
      new TypeError('fetch failed', { cause: Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }) }),
    ],
    [
      "n8n (its HTTP library's error as cause, under a generic code)",
      Object.assign(new Error('The connection cannot be established'), {
        name: 'NodeApiError',
        code: 'EPROTO',
        cause: Object.assign(new Error('x'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }),
      }),
    ],
  ])('%s', (_library, error) => {
    const code = failureCode(error)!;
    const made = noAnswerError(request, { code, timedOut: false, sent: true, detail: '', retryAdvice: 'Try again.' });
    expect(made).toBeInstanceOf(CertificateError);
    expect({ retryable: made.retryable, mayHaveApplied: made.mayHaveApplied, code: made.code }).toEqual({
      retryable: false,
      mayHaveApplied: false,
      code: 'certificate',
    });
  });

  it('leaves other failures as they were: a reset after a create was sent may have applied', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const made = noAnswerError(request, { code: failureCode(reset), timedOut: false, sent: true, detail: '', retryAdvice: 'Try again.' });
    expect(made.code).toBe('network');
    expect(made.mayHaveApplied).toBe(true);
  });

  it('stops at a cause chain that loops', () => {
    const a: { code?: string; cause?: unknown } = { code: 'ECONNRESET' };
    a.cause = { cause: a };
    expect(failureCode(a)).toBe('ECONNRESET');
  });
});
