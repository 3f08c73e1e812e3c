import type { Fault } from '../support/fault.js';

/** Breaks 4.2/R1: a successful create answers 200 instead of 201. */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    async createCategory(req) {
      const reply = await base.createCategory(req);
      return reply.status === 201 ? { ...reply, status: 200 } : reply;
    },
  }),
  expected: {
    failed: [
      'create-concurrent-ids-unique',
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
      'model-based-sequences',
    ],
    error: ['create-listed'],
  },
} satisfies Fault;
