import type { Fault } from '../support/fault.js';

/** Breaks 5 (scope: every operation): only /categories checks the key; other operations answer 404 to anyone. */
export default {
  breaks: '5',
  variation: (base) => ({
    async respond(req) {
      if (!req.path.startsWith('/v1/categories')) return base.error(404, 'not_found', `no resource at ${req.path}`);
      return base.respond(req);
    },
  }),
  expected: {
    // Its 404 carries no Deprecation or Sunset either (should).
    failed: ['orders-requires-auth', 'pets-deprecation-signalled', 'pets-requires-auth'],
  },
} satisfies Fault;
