import type { Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { buildConnector, Client, EnvHttpProxyAgent, Pool } from 'undici';
import { DIRECT } from '../config/proxy.js';
import type { RunSettings } from '../config/settings.js';
import type { WatchedDispatcher } from './connection-pool.js';

/** What a slot's dispatcher is built from: the run's transport settings. */
export type DispatcherOptions = Pick<RunSettings, 'timeoutMs' | 'maxResponseBytes' | 'proxy' | 'caPem' | 'clientCertPem' | 'clientKeyPem'>;

/**
 * One slot's single-connection dispatcher: undici's EnvHttpProxyAgent, which reaches the
 * target directly or through the proxy the run's environment names for its scheme (a
 * CONNECT tunnel, RFC 9110 §9.3.6), unless NO_PROXY names the host.
 *
 * The slot counts connections by the dispatcher's `connect` and `disconnect` events. The
 * proxy agent does not forward its inner clients' events, so the client to the target is
 * built here and its events are re-emitted on the dispatcher the slot watches, tunnelled
 * or not. TLS settings (extra CAs, a client certificate) go to the target's handshake in
 * both paths: `connect` directly, `requestTls` inside a tunnel.
 */
export function slotDispatcher(options: DispatcherOptions): WatchedDispatcher {
  const tls = {
    timeout: options.timeoutMs,
    ...(options.caPem ? { ca: [...rootCertificates, options.caPem] } : {}),
    ...(options.clientCertPem && options.clientKeyPem ? { cert: options.clientCertPem, key: options.clientKeyPem } : {}),
  };
  const { httpProxy, httpsProxy, noProxy } = options.proxy ?? DIRECT;
  const agent = new EnvHttpProxyAgent({
    httpProxy,
    httpsProxy,
    noProxy,
    connections: 1,
    // undici does not abort a request while its connection is being set up: the connect
    // timeout is the request deadline, so an unreachable target costs one deadline.
    connect: tls,
    requestTls: tls,
    proxyTls: { timeout: options.timeoutMs },
    // The CONNECT request to the proxy has the same deadline as any other.
    clientFactory: (origin: URL, opts: object) => new Pool(origin, { ...opts, headersTimeout: options.timeoutMs }),
    factory: (origin: string | URL, opts: { connect?: Client.Options['connect'] }) => {
      const connect = typeof opts.connect === 'function' ? opts.connect : buildConnector({ ...(opts.connect as buildConnector.BuildOptions) });
      const client = new Client(origin, {
        ...(opts as Client.Options),
        connect: (connectOptions, callback) =>
          connect(connectOptions, (error, socket) => {
            if (socket) sniffPeerVersion(socket as Socket, (version) => (agent as unknown as NodeJS.EventEmitter).emit('peerVersion', version));
            callback(error, socket as never);
          }),
      });
      client.on('connect', (...event) => agent.emit('connect', ...event));
      client.on('disconnect', (...event) => agent.emit('disconnect', ...event));
      return client;
    },
    maxResponseSize: options.maxResponseBytes,
    // Backstops only: the abort signal enforces the precise deadline.
    headersTimeout: options.timeoutMs + 1000,
    bodyTimeout: options.timeoutMs + 1000,
    keepAliveTimeout: 4000,
  } as EnvHttpProxyAgent.Options);
  return agent as unknown as WatchedDispatcher;
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
