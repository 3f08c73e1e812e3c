import type { Fault } from '../support/fault.js';

/**
 * Breaks RFC 6750 §3.1 (info): a wrong key is challenged like a missing one, without
 * `error="invalid_token"`, as servers that build one challenge for every 401 do.
 */
export default {
  breaks: '5',
  variation: (base) => ({
    unauthorized: (req) => {
      const reply = base.unauthorized(req);
      return { ...reply, headers: { ...reply.headers, 'www-authenticate': 'Bearer realm="petstore"' } };
    },
  }),
  expected: {
    failed: ['unauthorized-invalid-token'],
  },
} satisfies Fault;
