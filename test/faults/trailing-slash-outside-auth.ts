import type { Fault } from '../support/fault.js';

/**
 * Breaks 5 (scope): the router matches `/v1/categories/` to the list and create handlers,
 * as Express, Rails and Spring do by default (a trailing slash is the same route), while
 * the authentication middleware compares the exact path `/v1/categories`. A keyless GET
 * on the trailing-slash path returns the whole list, and a keyless POST creates.
 */
export default {
  breaks: '5',
  variation: (base) => ({
    async respond(req) {
      if (req.path === '/v1/categories/' && req.method === 'GET') return base.listCategories(req);
      if (req.path === '/v1/categories/' && req.method === 'POST') return base.createCategory(req);
      return base.respond(req);
    },
  }),
  expected: {
    failed: ['auth-path-spellings'],
  },
} satisfies Fault;
