// A small real forward proxy on loopback, as a company's would be: CONNECT
// tunnels for https:// and absolute-form requests for http://. It records
// every tunnel and request it carried, so a test can tell what went through
// it from what went direct.

import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ProxiedCall {
  /** `CONNECT` for a tunnel, otherwise the forwarded request's method. */
  readonly method: string;
  /** `host:port` for a tunnel, the absolute URL for a forwarded request. */
  readonly target: string;
}

export interface ConnectProxy {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly calls: readonly ProxiedCall[];
  /** The `host:port` of each CONNECT tunnel, in order. */
  tunnels(): string[];
  /** Forgets the calls so far. */
  clear(): void;
  close(): Promise<void>;
}

export async function startConnectProxy(): Promise<ConnectProxy> {
  const calls: ProxiedCall[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // An http:// request in absolute form, forwarded as it is.
    const target = req.url ?? '';
    calls.push({ method: req.method ?? '', target });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const upstream = request(
      url,
      { method: req.method, headers: { ...req.headers, connection: 'close' } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    calls.push({ method: 'CONNECT', target });
    const separator = target.lastIndexOf(':');
    const host = target.slice(0, separator).replace(/^\[|\]$/g, '');
    const port = Number(target.slice(separator + 1));
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    tunnels: () => calls.filter((call) => call.method === 'CONNECT').map((call) => call.target),
    clear: () => void calls.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
