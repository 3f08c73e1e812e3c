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
    failed: [
      'create-concurrent-ids-unique',
      'edge-control-characters',
      'edge-empty-name',
      'edge-long-name',
      'edge-unknown-properties',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
