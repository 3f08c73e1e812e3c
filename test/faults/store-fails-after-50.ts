import type { Fault } from '../support/fault.js';

/** Breaks 4.2/R1: once 50 categories exist, storing a valid one fails with 500 (a full table, a fixed-size buffer). */
export default {
  breaks: '4.2/R1',
  variation: (base, { store }) => ({
    async createCategory(req) {
      const decoded = base.decodeJson(req.body);
      const valid = decoded.ok && base.validateNewCategory(decoded.value).ok;
      if (valid && store.size >= 50) return base.error(500, 'storage_full', 'cannot store more categories');
      return base.createCategory(req);
    },
  }),
  expected: {
    // Its 16 parallel creates come after the create class's 30 generated ones (and what the
    // other classes stored meanwhile), so they always meet the full store.
    failed: ['create-concurrent-ids-unique', 'no-server-error'],
    // Whichever other creates come after the 50th store, as the concurrent classes interleave.
    mayFail: [
      'create-bodies-beyond-parser-limits',
      'create-deep-bodies',
      'create-ids-unique',
      'create-ignores-client-id',
      'create-name-only',
      'create-same-name-twice',
      'create-unicode',
      'create-valid-bodies',
      'create-with-description',
      'edge-control-characters',
      'edge-empty-name',
      'edge-long-name',
      'edge-unknown-properties',
      'list-ids-unique',
      'list-items-are-categories',
      'list-not-paginated',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
