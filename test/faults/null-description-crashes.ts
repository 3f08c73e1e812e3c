import type { Fault } from '../support/fault.js';

/**
 * Breaks robustness (info, 2): a null description crashes the handler into an HTML 500
 * page (Express's default). Only the info check may fail: its exchange is an observation,
 * so the section-7 invariants, which are must rules, do not judge it.
 */
export default {
  breaks: '2',
  variation: (base) => ({
    async createCategory(req) {
      const decoded = base.decodeJson(req.body);
      if (decoded.ok && (decoded.value as { description?: unknown } | null)?.description === null) {
        return { status: 500, headers: { 'content-type': 'text/html; charset=utf-8' }, raw: '<pre>TypeError</pre>' };
      }
      return base.createCategory(req);
    },
  }),
  expected: { failed: ['create-null-description'] },
} satisfies Fault;
