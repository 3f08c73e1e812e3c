import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A loopback node:http server with a hand-written handler, for misbehaving-server tests. */
export interface RawServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  origin: string;
  /** Requests received so far, with their headers. */
  received: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

/**
 * Starts a server on a free loopback port; `close` also destroys open sockets (hung responses).
 * @param options node:http's server options (e.g. `maxHeaderSize`, in bytes).
 */
export async function startRawServer(handler: (req: IncomingMessage, res: ServerResponse) => void, options: ServerOptions = {}): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const received: RawServer['received'] = [];
  const server = createServer(options, (req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
