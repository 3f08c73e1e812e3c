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
    failed: [
      'auth-rejects-generated-credentials',
      'create-concurrent-ids-unique',
      'create-listed',
      'create-same-name-twice',
      'list-answers-200-array',
      'list-ids-unique',
      'list-items-are-categories',
      'list-not-paginated',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
