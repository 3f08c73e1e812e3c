import type { Socket } from 'node:net';
import type { CorrectVariant } from '../support/fault.js';

/** A connection idle this long is closed, in ms. */
const IDLE_MS = 50;
/** How often the idle sweep runs, in ms: between sweeps, a request races the close. */
const SWEEP_MS = 200;

/**
 * Closes keep-alive connections idle for 50 ms, without announcing it (no `Keep-Alive:
 * timeout` hint): RFC 9112 §9.6 lets a server close an idle connection at any time. Its
 * idle sweep runs every 200 ms, and a request that arrives on a connection already due
 * for closing finds it closed (reset, no answer), as when the request and the close
 * cross on the wire. The client must send such a request again on a fresh connection.
 */
export default {
  allowedBy: 'RFC 9112 §9.6',
  variation: () => ({}),
  server(server) {
    server.keepAliveTimeout = 0; // no timer of Node's own, and no Keep-Alive hint
    const idleSince = new Map<Socket, number>();
    const closed = new WeakSet<Socket>();
    const due = (socket: Socket) => performance.now() - (idleSince.get(socket) ?? Infinity) >= IDLE_MS;
    const close = (socket: Socket) => {
      closed.add(socket);
      socket.destroy();
    };
    server.on('connection', (socket: Socket) => {
      socket.prependListener('data', () => {
        if (due(socket)) close(socket);
        idleSince.delete(socket);
      });
      socket.on('close', () => idleSince.delete(socket));
    });
    // Node's parser still reads the bytes that arrived with the close: a closed connection's
    // request is never handled, so nothing it asked for is applied.
    const handlers = server.listeners('request') as Array<(...args: unknown[]) => void>;
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      if (!closed.has(req.socket)) for (const handler of handlers) handler(req, res);
    });
    server.on('request', (req, res) => res.on('finish', () => idleSince.set(req.socket, performance.now())));
    const sweep = setInterval(() => {
      for (const socket of idleSince.keys()) if (due(socket)) close(socket);
    }, SWEEP_MS).unref();
    server.on('close', () => clearInterval(sweep));
  },
} satisfies CorrectVariant;
