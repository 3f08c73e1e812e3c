import type { CorrectVariant } from '../support/fault.js';

/** Closes the connection after every response: HTTP/1.1 allows it (RFC 9112 §9.6). */
export default {
  allowedBy: 'RFC 9112 §9.6',
  variation: (base) => ({ write: (res, reply) => base.write(res, { ...reply, headers: { ...reply.headers, connection: 'close' } }) }),
} satisfies CorrectVariant;
