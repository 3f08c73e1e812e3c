import type { Socket } from 'node:net';
import type { CorrectVariant } from '../support/fault.js';

/** Every this many requests that arrive on a kept-alive connection, one finds it closed. */
const EVERY = 8;

/**
 * Closes keep-alive connections as an idle timeout does, without announcing it (no
 * `Keep-Alive: timeout` hint): RFC 9112 §9.6 lets a server close an idle connection at any
 * time, and a request that crosses the close on the wire finds it closed (a reset, no
 * answer). The crossing is made deterministic rather than left to timers: every 8th
 * request that arrives on a connection which already served a response finds it closed,
 * unhandled. The client must send such a request again on a fresh connection.
 */
export default {
  allowedBy: 'RFC 9112 §9.6',
  variation: () => ({}),
  server(server) {
    server.keepAliveTimeout = 0; // no timer of Node's own, and no Keep-Alive hint
    const idle = new WeakSet<Socket>();
    const closed = new WeakSet<Socket>();
    let reusedRequests = 0;
    server.on('connection', (socket: Socket) => {
      socket.prependListener('data', () => {
        // The first bytes after a response are a new request on a kept-alive connection.
        if (!idle.has(socket)) return;
        idle.delete(socket);
        if (++reusedRequests % EVERY === 0) {
          closed.add(socket);
          socket.destroy();
        }
      });
    });
    // Node's parser still reads the bytes that arrived with the close: a closed connection's
    // request is never handled, so nothing it asked for is applied.
    const handlers = server.listeners('request') as Array<(...args: unknown[]) => void>;
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      if (!closed.has(req.socket)) for (const handler of handlers) handler(req, res);
    });
    server.on('request', (req, res) => res.on('finish', () => idle.add(req.socket)));
  },
} satisfies CorrectVariant;
