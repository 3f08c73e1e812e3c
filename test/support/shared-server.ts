import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBehaviour, type Variation } from '../../src/reference/behaviour.js';
import { serve } from '../../src/reference/server.js';
import { CategoryStore } from '../../src/reference/store.js';

/** One reference target behind a {@link startSharedServer}: its path prefix, its variations and key. */
export interface SharedTarget {
  /** A path segment, e.g. `sqlite-numeric-affinity-7`: the target is served under `/<prefix>/v1`. */
  prefix: string;
  variations: Variation[];
  apiKey: string;
}

/**
 * Many reference targets on one loopback port, each with its own store, told apart by a
 * path prefix: `http://127.0.0.1:<port>/<prefix>/v1`. For tests that run hundreds of small
 * targets at once (a listening socket each would be hundreds of servers).
 */
export async function startSharedServer(targets: readonly SharedTarget[]): Promise<{ baseUrl(prefix: string): string; close(): Promise<void> }> {
  const handlers = new Map(targets.map(({ prefix, variations, apiKey }) => [prefix, serve(createBehaviour({ store: new CategoryStore(), apiKey }, variations))]));
  const server = createServer((req, res) => {
    const [, prefix = '', ...rest] = (req.url ?? '/').split('/');
    const handler = handlers.get(prefix);
    if (!handler) return void res.writeHead(404).end();
    req.url = `/${rest.join('/')}`;
    void handler(req, res);
  });
  // A fleet probes all its targets at once: the backlog holds every connection it opens.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: (prefix) => `http://127.0.0.1:${port}/${prefix}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
