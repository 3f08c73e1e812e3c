import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createBehaviour, type ApiRequest, type Behaviour, type Variation } from './behaviour.js';
import { CategoryStore } from './store.js';

/** Options of {@link startReferenceServer}. */
export interface ReferenceServerOptions {
  /** The key to accept; generated (32 random base64url characters) when absent. */
  apiKey?: string;
  /** Loopback by default: the reference server is for local use. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Changes to the correct behaviour, applied in order (used by the project's own tests). */
  variations?: Variation[];
  /** First id the store assigns; default 1. */
  firstId?: bigint;
  /**
   * Serve HTTPS with this PEM key and certificate instead of plain HTTP; with `clientCa`,
   * only to clients presenting a certificate it signed (mutual TLS).
   */
  tls?: { key: string; cert: string; clientCa?: string };
  /**
   * Changes to the server itself before it listens, for behaviour below the HTTP
   * exchange (how connections are kept alive or closed): the project's own tests use it.
   */
  configure?: (server: Server) => void;
}

/** A running reference server. */
export interface ReferenceServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  apiKey: string;
  /** Whether the key was generated rather than given. */
  generatedKey: boolean;
  store: CategoryStore;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Request bodies kept at most, in bytes; a larger body is answered 413 after authentication. */
export const REFERENCE_MAX_BODY_BYTES = 1024 * 1024;

/** Random bytes of a key the server makes when given none (the embedded server's, `serve`'s): 32 characters of base64url. */
export const GENERATED_KEY_BYTES = 24;

/**
 * Starts the reference implementation of the categories interface: in memory, on
 * node:http, serving `/v1`.
 * @throws the listen error (e.g. EADDRINUSE) when the port cannot be bound.
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const generatedKey = options.apiKey === undefined;
  const apiKey = options.apiKey ?? randomBytes(GENERATED_KEY_BYTES).toString('base64url');
  const store = new CategoryStore(options.firstId);
  const behaviour = createBehaviour({ store, apiKey }, options.variations);

  const handler = serve(behaviour);
  const tls = options.tls && { key: options.tls.key, cert: options.tls.cert, ...(options.tls.clientCa ? { ca: options.tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}) };
  const server: Server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  server.keepAliveTimeout = 5_000;
  options.configure?.(server);

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: `${options.tls ? 'https' : 'http'}://${shownHost}:${port}/v1`,
    apiKey,
    generatedKey,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A node:http request listener that answers with `behaviour`: the body read (capped at
 * 1 MiB), the reply written, and an exception turned into a 500 with an Error body, as an
 * unhandled error in a framework is.
 */
export function serve(behaviour: Behaviour): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      const reply = await behaviour.respond(await readRequest(req));
      behaviour.write(res, reply);
    } catch (error) {
      if (!res.headersSent) behaviour.write(res, behaviour.error(500, 'internal', (error as Error).message));
      else res.destroy();
    }
  };
}

async function readRequest(req: IncomingMessage): Promise<ApiRequest> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size <= REFERENCE_MAX_BODY_BYTES) chunks.push(chunk);
  }
  return {
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?', 1)[0]!,
    query: new URLSearchParams((req.url ?? '').split('?', 2)[1] ?? ''),
    headers: req.headers,
    body: Buffer.concat(chunks),
    bodyTooLarge: size > REFERENCE_MAX_BODY_BYTES,
  };
}
