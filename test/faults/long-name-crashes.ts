import type { Fault } from '../support/fault.js';

/**
 * Breaks 4 and 4.2/R1: names over 1,000 characters crash the handler into an HTML 500
 * page. Section 8 allows a length limit (a 400 or 413), never a crash: the generated long
 * names meet it, and so does the info probe of 10,000 characters.
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    async createCategory(req) {
      const decoded = base.decodeJson(req.body);
      const name = decoded.ok ? (decoded.value as { name?: unknown } | null)?.name : undefined;
      if (typeof name === 'string' && name.length > 1000) {
        return { status: 500, headers: { 'content-type': 'text/html; charset=utf-8' }, raw: '<pre>RangeError</pre>' };
      }
      return base.createCategory(req);
    },
  }),
  expected: {
    failed: [
      'create-valid-bodies',
      'edge-long-name',
      'error-body-is-error',
      'error-content-type-json',
      'model-based-sequences',
      'no-server-error',
    ],
  },
} satisfies Fault;
