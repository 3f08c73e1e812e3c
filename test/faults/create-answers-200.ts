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
    broken: ['create'],
    failed: ['answers-allowed-status', 'chunked-body-answered'],
    error: ['create-listed'],
  },
} satisfies Fault;
