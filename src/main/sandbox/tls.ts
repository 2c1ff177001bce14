// Certificates for the sandbox over TLS (`npm run sandbox -- --tls`): a private
// CA made at each start, and a server certificate it signs for the loopback
// names (localhost, 127.0.0.1, ::1). Only the sandbox's own command line loads
// this (selfsigned is a development dependency); the app's built-in sandbox
// speaks plain HTTP on loopback.

import { randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';

export interface SandboxTls {
  /** The server's private key (PEM). */
  readonly key: string;
  /** The server's certificate (PEM), signed by `ca`. */
  readonly cert: string;
  /** The CA certificate (PEM) a client trusts to reach the sandbox. */
  readonly ca: string;
}

const DAY_MS = 86_400_000;

/** The names the server certificate covers: loopback only. */
export const SANDBOX_TLS_NAMES = ['localhost', '127.0.0.1', '::1'] as const;

export async function makeSandboxTls(now = Date.now()): Promise<SandboxTls> {
  const notBeforeDate = new Date(now - DAY_MS);
  const ca = await generate(
    [
      // A name of its own: a client trusting another run's CA must not take this one's for it.
      { name: 'commonName', value: `Store Admin Sandbox CA ${randomBytes(4).toString('hex')}` },
      { name: 'organizationName', value: 'Store Admin sandbox (made at start, not for real use)' },
    ],
    {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate: new Date(now + 30 * DAY_MS),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ],
    },
  );
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(now + 30 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: SANDBOX_TLS_NAMES.map((name) =>
          name.includes('.') || name.includes(':')
            ? { type: 7 as const, ip: name }
            : { type: 2 as const, value: name },
        ),
      },
    ],
    ca: { key: ca.private, cert: ca.cert },
  });
  return { key: leaf.private, cert: leaf.cert, ca: ca.cert };
}
