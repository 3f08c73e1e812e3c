import type { Fault } from '../support/fault.js';

/**
 * Breaks 5/R2: a request that claims to come from a private or loopback address in
 * `X-Forwarded-For` or `X-Real-IP` skips the key, as a service that trusts its gateway to
 * set them for internal traffic, and never strips them from the client's.
 */
export default {
  breaks: '5/R2',
  variation: (base) => ({
    async respond(req) {
      const claimed = [req.headers['x-forwarded-for'], req.headers['x-real-ip']].flat().filter((value): value is string => typeof value === 'string');
      const internal = claimed.some((value) => /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|localhost$)/.test(value.split(',')[0]!.trim()));
      if (!internal || req.path !== '/v1/categories') return base.respond(req);
      if (req.method === 'GET') return base.listCategories(req);
      if (req.method === 'POST') return base.createCategory(req);
      return base.respond(req);
    },
  }),
  expected: { failed: ['auth-rejects-generated-credentials'] },
  counterexamples: {
    'auth-rejects-generated-credentials': (shown) => /^listCategories, `X-Forwarded-For: 127\.0\.0\.1` without a key/.test(shown),
  },
} satisfies Fault;
