import type { Fault } from '../support/fault.js';

/**
 * Breaks 5/R1: an API gateway's convention is honoured beside the spec's, the key taken
 * from an `X-API-Key` header when no Authorization header is sent, as AWS API Gateway and
 * Kong's key-auth plugin read it. Section 5 puts the key in the Authorization header alone.
 */
export default {
  breaks: '5/R1',
  variation: (base) => ({
    async respond(req) {
      const key = req.headers['x-api-key'];
      const carried = req.headers.authorization === undefined && typeof key === 'string';
      return base.respond(carried ? { ...req, headers: { ...req.headers, authorization: `Bearer ${key}` } } : req);
    },
  }),
  expected: {
    failed: ['auth-key-outside-authorization'],
  },
} satisfies Fault;
