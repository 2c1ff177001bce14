// A TLS server on loopback that shows a certificate chosen by SNI, with
// certificates made for the test: a private CA, leaves it signed, and
// self-signed ones. Plus a TCP server that never starts the handshake.

import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server,
  type Socket,
} from 'node:net';
import { createSecureContext, createServer, type SecureContext } from 'node:tls';
import { generate } from 'selfsigned';

export interface Pem {
  readonly key: string;
  readonly cert: string;
}

const DAY_MS = 86_400_000;

export async function makeCa(commonName = 'Pet Store Test CA'): Promise<Pem> {
  const pems = await generate(
    [
      { name: 'commonName', value: commonName },
      { name: 'organizationName', value: 'Pet Store Test' },
    ],
    {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - DAY_MS),
      notAfterDate: new Date(Date.now() + 3650 * DAY_MS),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        {
          name: 'keyUsage',
          keyCertSign: true,
          cRLSign: true,
          digitalSignature: true,
          critical: true,
        },
      ],
    },
  );
  return { key: pems.private, cert: pems.cert };
}

export interface LeafOptions {
  readonly names: readonly string[];
  /** Signed by this CA; self-signed when absent. */
  readonly ca?: Pem;
  readonly notBefore?: Date;
  readonly notAfter?: Date;
  readonly commonName?: string;
}

export async function makeLeaf(options: LeafOptions): Promise<Pem> {
  const pems = await generate(
    [{ name: 'commonName', value: options.commonName ?? options.names[0] ?? 'leaf' }],
    {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate: options.notBefore ?? new Date(Date.now() - DAY_MS),
      notAfterDate: options.notAfter ?? new Date(Date.now() + 90 * DAY_MS),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: options.names.map((value) => ({ type: 2 as const, value })),
        },
      ],
      ...(options.ca ? { ca: { key: options.ca.key, cert: options.ca.cert } } : {}),
    },
  );
  return { key: pems.private, cert: pems.cert };
}

export interface TlsTestServer {
  readonly port: number;
  /** The SNI names asked for, in order. */
  readonly servernames: string[];
  close(): Promise<void>;
}

/**
 * Serves `bySni[servername]`, else `fallback` (like a platform's default
 * certificate); names listed in `refuse` get the handshake aborted.
 */
export async function startTlsTestServer(options: {
  readonly fallback: Pem;
  readonly bySni?: Readonly<Record<string, Pem>>;
  readonly refuse?: readonly string[];
}): Promise<TlsTestServer> {
  const contexts = new Map<string, SecureContext>(
    Object.entries(options.bySni ?? {}).map(([name, pem]) => [name, createSecureContext(pem)]),
  );
  const servernames: string[] = [];
  const server = createServer({
    ...options.fallback,
    SNICallback: (servername, callback) => {
      servernames.push(servername);
      if (options.refuse?.includes(servername)) callback(new Error('no certificate for this name'));
      else callback(null, contexts.get(servername));
    },
  });
  server.on('secureConnection', (socket) => socket.end());
  server.on('tlsClientError', () => {});
  return listen(server, servernames);
}

/** Accepts TCP connections and never answers: a handshake that stalls. */
export async function startStallingServer(): Promise<TlsTestServer> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const started = await listen(server, []);
  return {
    ...started,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return started.close();
    },
  };
}

async function listen(server: Server, servernames: string[]): Promise<TlsTestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    servernames,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port with nothing listening. */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const { port } = await listen(server, []);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
