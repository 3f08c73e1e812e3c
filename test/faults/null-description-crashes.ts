import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2 (400 row) and 7: a null description (not a string, so invalid) crashes the
 * handler into an HTML 500 page, Express's default, instead of a 400 Error.
 */
export default {
  breaks: '4.2',
  variation: (base) => ({
    async createCategory(req) {
      const decoded = base.decodeJson(req.body);
      if (decoded.ok && (decoded.value as { description?: unknown } | null)?.description === null) {
        return { status: 500, headers: { 'content-type': 'text/html; charset=utf-8' }, raw: '<pre>TypeError</pre>' };
      }
      return base.createCategory(req);
    },
  }),
  expected: {
    failed: [
      'create-rejects-invalid-bodies',
      'create-rejects-wrong-type-description',
      'error-body-is-error',
      'error-content-type-json',
      'no-server-error',
    ],
  },
} satisfies Fault;
