import type { Fault } from '../support/fault.js';

/**
 * Breaks 5/R2: HEAD reaches the list handler without authentication, as in a framework
 * that routes HEAD to the GET handler while the key is checked by a guard registered for
 * GET and POST alone. The answer carries the list's count.
 */
export default {
  breaks: '5/R2',
  variation: (base) => ({
    async respond(req) {
      if (req.method === 'HEAD' && req.path === '/v1/categories') {
        const list = await base.listCategories(req);
        return { ...list, headers: { ...list.headers, 'x-total-count': String((list.body as unknown[]).length) } };
      }
      const reply = await base.respond(req);
      // The GET handler counts its list too: what HEAD would tell of it.
      return req.method === 'GET' && req.path === '/v1/categories' && reply.status === 200 ? { ...reply, headers: { ...reply.headers, 'x-total-count': String((reply.body as unknown[]).length) } } : reply;
    },
  }),
  expected: { failed: ['auth-rejects-generated-credentials'] },
  counterexamples: {
    'auth-rejects-generated-credentials': (shown) => /^listCategories, `HEAD` without a key/.test(shown),
  },
} satisfies Fault;
