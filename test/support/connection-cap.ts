import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A front that caps connections, as a gateway does per client (nginx limit_conn, HAProxy maxconn, a cloud load balancer). */
export interface ConnectionCap {
  /** The front's base URL: the target's path on the front's port. */
  baseUrl: string;
  /** Connections accepted and passed on, and connections reset, so far. */
  counts(): { accepted: number; reset: number; mostAtOnce: number };
  close(): Promise<void>;
}

/**
 * A TCP front on a free loopback port before `baseUrl`'s server: while `cap` connections
 * are open, a new one is reset at once (RST, before any byte is read from it); the others
 * are piped through unaltered. `cap` 0 resets every connection.
 */
export async function startConnectionCap(baseUrl: string, cap: number): Promise<ConnectionCap> {
  const target = new URL(baseUrl);
  const open = new Set<Socket>();
  let accepted = 0;
  let reset = 0;
  let mostAtOnce = 0;
  const server = createServer((client) => {
    if (open.size >= cap) {
      reset++;
      client.resetAndDestroy();
      return;
    }
    accepted++;
    open.add(client);
    mostAtOnce = Math.max(mostAtOnce, open.size);
    const upstream = connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    counts: () => ({ accepted, reset, mostAtOnce }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
