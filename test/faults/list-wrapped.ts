import type { Fault } from '../support/fault.js';

/** Breaks 4.1: the list is wrapped in an object ({"items": [...]}) instead of being the array. */
export default {
  breaks: '4.1',
  variation: (base) => ({
    async listCategories(req) {
      const reply = await base.listCategories(req);
      return { ...reply, body: { items: reply.body } };
    },
  }),
  expected: {
    broken: ['list'],
    failed: [],
  },
} satisfies Fault;
