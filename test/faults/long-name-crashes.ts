import type { Fault } from '../support/fault.js';

/**
 * Breaks robustness only (info, 8): names over 1,000 characters crash the handler into an
 * HTML 500 page. Only the info probe fails: its exchange is an observation, so the
 * section-7 invariants, which are must rules, do not judge it, and the verdict stands.
 */
export default {
  breaks: '8',
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
    failed: ['edge-long-name'],
  },
} satisfies Fault;
