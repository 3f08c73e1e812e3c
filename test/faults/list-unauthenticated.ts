import type { Fault } from '../support/fault.js';

/** Breaks 5/R2 (scope): listCategories is served without authentication. */
export default {
  breaks: '5/R2',
  variation: (base) => ({
    async respond(req) {
      if (req.method === 'GET' && req.path === '/v1/categories') return base.listCategories(req);
      return base.respond(req);
    },
  }),
  expected: {
    failed: ['missing', 'unknown-key', 'empty-token', 'basic-scheme', 'no-scheme', 'key-char-added', 'key-char-removed', 'key-char-changed', 'key-case-swapped'].map(
      (v) => `list-401-${v}`,
    ),
  },
} satisfies Fault;
