import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R3: a create is stored before the key is checked (an audit hook that writes
 * every valid body it sees), so a create refused with 401 is in the list all the same.
 */
export default {
  breaks: '4.2/R3',
  variation: (base) => ({
    async respond(req) {
      if (req.method === 'POST' && req.path === '/v1/categories' && !base.authorize(req.headers.authorization)) {
        await base.createCategory(req);
        return base.unauthorized(req);
      }
      return base.respond(req);
    },
  }),
  expected: { failed: ['auth-path-spellings', 'auth-rejects-generated-credentials', 'model-based-sequences'] },
} satisfies Fault;
