import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** A CONNECT proxy that reaches one loopback server under any name: a target off loopback, as the tool sees it. */
export interface NamedFront {
  /** The proxy's URL, for HTTP_PROXY. */
  proxyUrl: string;
  /** `baseUrl` as reached under `name` (e.g. `http://staging.example.test:8080/v1`): the tool takes it for a remote target. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts a CONNECT proxy on loopback that tunnels every authority it is asked for to
 * `baseUrl`'s port on 127.0.0.1, so that a run through it (HTTP_PROXY) names a target off
 * loopback while its traffic stays on this machine.
 * @param ports another loopback port for an authority's port (`{ 443: tlsPort }`): one
 *   front for the names of several servers.
 */
export async function startNamedFront(baseUrl: string, name = 'staging.example.test', ports: Record<string, number> = {}): Promise<NamedFront> {
  const target = new URL(baseUrl);
  const sockets = new Set<Socket>();
  const proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const asked = /:(\d+)$/.exec(req.url ?? '')?.[1] ?? '';
    const upstream = connect(ports[asked] ?? Number(target.port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      client.pipe(upstream).pipe(client);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {}).on('close', () => (sockets.delete(socket), client.destroy(), upstream.destroy()));
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    proxyUrl: `http://127.0.0.1:${port}`,
    baseUrl: `http://${name}:${target.port}${target.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}
