import type { Fault } from '../support/fault.js';

/** The header fields a method-override middleware honours. */
const OVERRIDE = ['x-http-method-override', 'x-http-method', 'x-method-override'];

/**
 * Breaks 5/R2: the key is checked for GET and POST alone (OPTIONS is let through for CORS),
 * and a method-override middleware that runs after authentication then turns an OPTIONS
 * into the GET its `X-HTTP-Method-Override` names: the list without a key.
 */
export default {
  breaks: '5/R2',
  variation: (base) => ({
    async respond(req) {
      if (req.method !== 'OPTIONS' || req.path !== '/v1/categories') return base.respond(req);
      const override = OVERRIDE.map((name) => req.headers[name]).find((value) => typeof value === 'string');
      if (override?.toUpperCase() === 'GET') return base.listCategories(req);
      return { status: 204, headers: { allow: 'GET, POST' } };
    },
  }),
  expected: { failed: ['auth-rejects-generated-credentials'] },
  counterexamples: {
    'auth-rejects-generated-credentials': (shown) => /^listCategories, `OPTIONS` \+ `X-HTTP-Method-Override: GET` without a key/.test(shown),
  },
} satisfies Fault;
