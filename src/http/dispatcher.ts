import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import type * as Undici from 'undici';
import { DIRECT } from '../config/proxy.js';
import type { RunSettings } from '../config/settings.js';
import type { WatchedDispatcher } from './connection-pool.js';
import { buildConnector, Client, EnvHttpProxyAgent, Pool } from './undici-parts.js';

/** What a slot's dispatcher is built from: the run's transport settings. */
export type DispatcherOptions = Pick<RunSettings, 'timeoutMs' | 'maxResponseBytes' | 'proxy' | 'caPem' | 'clientCertPem' | 'clientKeyPem'> & Partial<Pick<RunSettings, 'insecure'>>;

/** How the target is reached, whatever the deadlines: the environment's proxy, extra CAs, a client certificate. */
type RouteOptions = Pick<DispatcherOptions, 'proxy' | 'caPem' | 'clientCertPem' | 'clientKeyPem' | 'insecure'>;

/**
 * The largest header block read from a target or a client, in bytes: 256 KiB. Node's and
 * undici's default of 16 KiB is less than a server that sets a few hundred cookies sends
 * (500 `Set-Cookie` fields are some 20 KiB), and the proxy would drop its answer.
 */
export const MAX_HEADER_BYTES = 256 * 1024;

/**
 * A single-connection dispatcher to the target: undici's EnvHttpProxyAgent, which reaches
 * it directly or through the proxy the environment names for its scheme (a CONNECT
 * tunnel, RFC 9110 §9.3.6), unless NO_PROXY names the host. The proxy agent does not
 * forward its inner clients' events, so the client to the target is built here and its
 * `connect` and `disconnect` events are re-emitted, tunnelled or not; so are the head of
 * each request written (`requestWritten`), and the HTTP version of the connection's first
 * status line (`peerVersion`, {@link sniffPeerVersion}): a client
 * sends chunked framing only to a server known to speak HTTP/1.1 (RFC 9112 §7.1). TLS
 * settings go to the target's handshake in both paths: `connect` directly, `requestTls`
 * inside a tunnel.
 * @param deadlines the request deadline (ms) and the largest answer (bytes); none: the
 *   caller's client decides how long to wait (the validating proxy's).
 */
function targetConnection(route: RouteOptions, deadlines?: Pick<DispatcherOptions, 'timeoutMs' | 'maxResponseBytes'>): UpstreamDispatcher & WatchedDispatcher {
  const tls = { ...tlsOptions(route), ...(deadlines ? { timeout: deadlines.timeoutMs } : {}) };
  const { httpProxy, httpsProxy, noProxy } = route.proxy ?? DIRECT;
  let peerVersion: string | undefined;
  const emit = (event: string, ...args: unknown[]) => (agent as unknown as NodeJS.EventEmitter).emit(event, ...args);
  const agent: Undici.EnvHttpProxyAgent = new EnvHttpProxyAgent({
    httpProxy,
    httpsProxy,
    noProxy,
    connections: 1,
    maxHeaderSize: MAX_HEADER_BYTES,
    connect: tls,
    requestTls: tls,
    factory: (origin: string | URL, opts: { connect?: Undici.Client.Options['connect'] }) => {
      const client = new Client(origin, { ...(opts as Undici.Client.Options), connect: sniffing(opts.connect, (version) => emit('peerVersion', (peerVersion = version)), () => emit('requestWritten')) });
      client.on('connect', (...event) => emit('connect', ...event));
      client.on('disconnect', (...event) => emit('disconnect', ...event));
      return client;
    },
    ...(deadlines
      ? {
          // undici does not abort a request while its connection is being set up: the connect
          // timeout is the request deadline, so an unreachable target costs one deadline.
          proxyTls: { timeout: deadlines.timeoutMs },
          // The CONNECT request to the proxy has the same deadline as any other.
          clientFactory: (origin: URL, opts: object) => new Pool(origin, { ...opts, headersTimeout: deadlines.timeoutMs }),
          maxResponseSize: deadlines.maxResponseBytes,
          // Backstops only: the abort signal enforces the precise deadline.
          headersTimeout: deadlines.timeoutMs + 1000,
          bodyTimeout: deadlines.timeoutMs + 1000,
          keepAliveTimeout: 4000,
        }
      : { headersTimeout: 0, bodyTimeout: 0 }),
  } as Undici.EnvHttpProxyAgent.Options);
  return Object.defineProperty(agent, 'peerVersion', { get: () => peerVersion }) as unknown as UpstreamDispatcher & WatchedDispatcher;
}

/**
 * One slot's single-connection dispatcher ({@link targetConnection}) with the run's
 * deadlines: the slot counts connections by its `connect` and `disconnect` events, and
 * reads each connection's `peerVersion`.
 */
export function slotDispatcher(options: DispatcherOptions): WatchedDispatcher {
  return targetConnection(options, options);
}

/** The TLS settings of a connection to the target: extra CAs, a client certificate, no verification with `--insecure`. */
function tlsOptions(options: RouteOptions) {
  return {
    ...(options.insecure ? { rejectUnauthorized: false } : {}),
    ...(options.caPem ? { ca: [...rootCertificates, options.caPem] } : {}),
    ...(options.clientCertPem && options.clientKeyPem ? { cert: options.clientCertPem, key: options.clientKeyPem } : {}),
  };
}

/** A single-connection dispatcher that knows the HTTP version its target answers in, and says when its connection closes. */
export type UpstreamDispatcher = Undici.Dispatcher & {
  /** The version of its connection's first status line (`HTTP/1.0`, `HTTP/1.1`); undefined before any answer. */
  readonly peerVersion: string | undefined;
  on(event: 'disconnect', listener: () => void): unknown;
};

/**
 * One connection of the validating proxy to its target (traffic/proxy.ts), for one
 * client connection ({@link targetConnection}): reached as a run reaches the target, with
 * no deadline of its own (the client it stands for decides how long to wait).
 */
export function upstreamDispatcher(options: RouteOptions): UpstreamDispatcher {
  return targetConnection(options);
}

/** Who hears that a request's head is being written on a socket: the connection's dispatcher. */
const writers = new WeakMap<object, () => void>();

// undici announces each request head as it writes it (before the bytes reach the socket):
// a request whose head was never announced provably never left (RFC 9110 §9.2.2).
subscribe('undici:client:sendHeaders', (message) => writers.get((message as { socket: object }).socket)?.());

/**
 * A connector that reports each connection's peer version ({@link sniffPeerVersion}) and
 * each request head written on it; `connect` as undici's Client takes it.
 */
function sniffing(connect: Undici.Client.Options['connect'], onVersion: (version: string | undefined) => void, onWrite: () => void): Undici.buildConnector.connector {
  const connector = typeof connect === 'function' ? connect : buildConnector({ ...(connect as Undici.buildConnector.BuildOptions) });
  return (connectOptions, callback) =>
    connector(connectOptions, (error, socket) => {
      if (socket) {
        sniffPeerVersion(socket as Socket, onVersion);
        writers.set(socket, onWrite);
      }
      callback(error, socket as never);
    });
}

/**
 * Calls `onVersion` with the HTTP version of the first status line a connection receives
 * (`HTTP/1.0`, `HTTP/1.1`; undefined for anything else), read off the bytes as undici's
 * parser takes them (its `socket.read()`), without consuming or changing any.
 */
export function sniffPeerVersion(socket: Pick<Socket, 'read'>, onVersion: (version: string | undefined) => void): void {
  const read = socket.read;
  let head = '';
  const patched = function (this: Socket, size?: number) {
    const chunk = read.call(this, size) as Buffer | string | null;
    if (chunk !== null && head.length < VERSION_BYTES) {
      head += Buffer.isBuffer(chunk) ? chunk.toString('latin1', 0, VERSION_BYTES - head.length) : chunk.slice(0, VERSION_BYTES - head.length);
      if (head.length === VERSION_BYTES) {
        socket.read = read;
        onVersion(/^HTTP\/\d\.\d$/.test(head) ? head : undefined);
      }
    }
    return chunk;
  };
  socket.read = patched as Socket['read'];
}

/** `HTTP/1.1`: the bytes of a status line that name its version. */
const VERSION_BYTES = 8;
