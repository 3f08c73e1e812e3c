import type { Fault } from '../support/fault.js';

/** Breaks 4.1/R2 (no pagination): the list quietly stops after 10 items. */
export default {
  breaks: '4.1/R2',
  variation: (base) => ({
    async listCategories(req) {
      const reply = await base.listCategories(req);
      return { ...reply, body: (reply.body as unknown[]).slice(0, 10) };
    },
  }),
  expected: {
    failed: [
      'client-forms-equivalent',
      'create-concurrent-ids-unique',
      'create-same-name-twice',
      'create-valid-bodies',
      'list-not-paginated',
      'model-based-sequences',
    ],
    mayFail: ['chunked-body-created-exactly', 'create-listed'],
  },
} satisfies Fault;
