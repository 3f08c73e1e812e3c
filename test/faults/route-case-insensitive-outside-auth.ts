import type { Fault } from '../support/fault.js';

/**
 * Breaks 5 (scope): the router matches paths without regard to case (Express's and
 * ASP.NET's default), while the authentication middleware guards the exact path
 * `/v1/categories`: `/v1/Categories` and `/V1/categories` reach the list and create
 * handlers without a key.
 */
export default {
  breaks: '5',
  variation: (base) => ({
    async respond(req) {
      const lenient = req.path.toLowerCase() === '/v1/categories' && req.path !== '/v1/categories';
      if (lenient && req.method === 'GET') return base.listCategories(req);
      if (lenient && req.method === 'POST') return base.createCategory(req);
      return base.respond(req);
    },
  }),
  expected: {
    failed: ['auth-path-spellings'],
    // The property draws the spellings in combinations: other case in some runs only.
    mayFail: ['auth-rejects-generated-credentials'],
  },
} satisfies Fault;
