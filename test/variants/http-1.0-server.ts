import type { Socket } from 'node:net';
import type { CorrectVariant } from '../support/fault.js';

/**
 * Speaks HTTP/1.0, as Python's `http.server` does at its defaults (`protocol_version =
 * "HTTP/1.0"`): every answer's status line says HTTP/1.0 and the connection closes after
 * it; a chunked body, which HTTP/1.0 does not have, is not decoded and reads as empty (400).
 * A client sends chunked framing only to a server known to speak HTTP/1.1 (RFC 9112 §7.1):
 * the transport checks do not ask this one.
 */
export default {
  allowedBy: 'RFC 9112 §2.3, §7.1',
  variation: (base) => ({
    async createCategory(req) {
      return base.createCategory(req.headers['content-length'] === undefined ? { ...req, body: Buffer.alloc(0) } : req);
    },
    write: (res, reply) => base.write(res, { ...reply, headers: { ...reply.headers, connection: 'close' } }),
  }),
  server(server) {
    // Node writes HTTP/1.1 status lines only: the head of each answer is rewritten on its way out.
    server.on('connection', (socket: Socket) => {
      const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
      socket.write = ((data: unknown, ...rest: unknown[]) =>
        write(typeof data === 'string' && data.startsWith('HTTP/1.1 ') ? `HTTP/1.0 ${data.slice(9)}` : data, ...rest)) as Socket['write'];
    });
  },
  expectedNotPassed: ['chunked-body-answered', 'chunked-body-created-exactly'],
} satisfies CorrectVariant;
