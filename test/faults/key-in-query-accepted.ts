import type { Fault } from '../support/fault.js';

/**
 * Breaks 5/R1: the key is also taken from the query parameter `access_token` (RFC 6750
 * §2.3), as OAuth libraries allow by default, so a request without an Authorization header
 * is let through. Section 5 puts the key in the Authorization header alone: such a request
 * has a missing key.
 */
export default {
  breaks: '5/R1',
  variation: (base) => ({
    async respond(req) {
      const token = req.query.get('access_token');
      const carried = req.headers.authorization === undefined && token !== null;
      return base.respond(carried ? { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } } : req);
    },
  }),
  expected: {
    failed: ['auth-key-in-query'],
  },
} satisfies Fault;
