import type { CorrectVariant } from '../support/fault.js';

/** Labels every body application/json; charset=utf-8: a media type parameter (RFC 9110 §8.3.1). */
export default {
  allowedBy: '4',
  variation: (base) => ({
    write: (res, reply) => base.write(res, { ...reply, headers: { ...reply.headers, 'content-type': 'application/json; charset=utf-8' } }),
  }),
} satisfies CorrectVariant;
