import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.1 and 4.2/R1: content negotiation done by hand answers 406 (with an Error body)
 * unless the Accept header literally contains `application/json`. `*\/*` (curl, Python
 * requests), `application/*` and no Accept at all each admit application/json
 * (RFC 9110 §12.5.1), and are refused.
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => {
    const negotiated =
      (handler: 'listCategories' | 'createCategory'): typeof base.listCategories =>
      async (req) =>
        (req.headers.accept ?? '').includes('application/json') ? base[handler](req) : base.error(406, 'not_acceptable', 'only application/json is served');
    return { listCategories: negotiated('listCategories'), createCategory: negotiated('createCategory') };
  },
  expected: {
    failed: ['answers-allowed-status', 'client-forms-equivalent', 'create-rejects-invalid-bodies'],
    mayFail: ['create-valid-bodies'],
  },
} satisfies Fault;
