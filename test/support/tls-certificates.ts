import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A key and certificate in PEM, and where the certificate is on disk (for NODE_EXTRA_CA_CERTS). */
export interface Pem {
  readonly key: string;
  readonly cert: string;
  readonly certFile: string;
}

/**
 * Certificates made by openssl for one test file, in a temporary folder: one self-signed for
 * 127.0.0.1, and a private authority with two certificates it signed, one for 127.0.0.1 and
 * one for another host name. P-256 keys: made in milliseconds.
 */
export function makeCertificates(): { selfSigned: Pem; authority: Pem; signed: Pem; otherHost: Pem; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pagerly-tls-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const pem = (name: string): Pem => ({
    key: readFileSync(at(`${name}.key`), 'utf8'),
    cert: readFileSync(at(`${name}.crt`), 'utf8'),
    certFile: at(`${name}.crt`),
  });

  openssl(
    'req',
    '-x509',
    ...newKey,
    '-keyout',
    'self.key',
    '-out',
    'self.crt',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  );
  openssl('req', '-x509', ...newKey, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Pagerly Test Authority');
  const sign = (name: string, altName: string) => {
    writeFileSync(at(`${name}.ext`), `subjectAltName=${altName}\n`);
    openssl('req', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      `${name}.crt`,
      '-extfile',
      `${name}.ext`,
    );
  };
  sign('signed', 'IP:127.0.0.1');
  sign('other', 'DNS:elsewhere.example');
  return {
    selfSigned: pem('self'),
    authority: pem('ca'),
    signed: pem('signed'),
    otherHost: pem('other'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The team list, as every request is answered unless a handler is given. */
const teams: http.RequestListener = (request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ id: 'team_platform', name: 'Platform' }])));
};

/**
 * An HTTPS service on 127.0.0.1 with the given certificate, answering with `handler` (the team
 * list by default); `requests` counts the requests that got through the handshake.
 */
export async function tlsServer(pem: Pem, handler: http.RequestListener = teams): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let requests = 0;
  const server = https.createServer({ key: pem.key, cert: pem.cert }, (request, response) => {
    requests++;
    handler(request, response);
  });
  // A client that refuses the certificate ends the handshake; the server's side of it is no error of the test.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let selfSigned: Pem | undefined;

/** One self-signed certificate for 127.0.0.1 per test process, kept in memory (its folder is removed at once). */
export function selfSignedCertificate(): Pem {
  if (!selfSigned) {
    const made = makeCertificates();
    selfSigned = { key: made.selfSigned.key, cert: made.selfSigned.cert, certFile: '' };
    made.remove();
  }
  return selfSigned;
}
