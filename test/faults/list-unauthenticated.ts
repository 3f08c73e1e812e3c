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
    failed: [
      'auth-key-in-query',
      'auth-key-outside-authorization',
      'auth-path-spellings',
      'auth-rejects-generated-credentials',
      'list-401-basic-scheme',
      'list-401-empty-token',
      'list-401-key-case-swapped',
      'list-401-key-char-added',
      'list-401-key-char-changed',
      'list-401-key-char-removed',
      'list-401-missing',
      'list-401-no-scheme',
      'list-401-unknown-key',
      'unauthorized-invalid-token',
    ],
  },
} satisfies Fault;
