import type { Fault } from '../support/fault.js';

/** Breaks 4.2/R1: a create answers 201 with an empty body instead of the created Category. */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    async createCategory(req) {
      const reply = await base.createCategory(req);
      return reply.status === 201 ? { status: 201, headers: { 'content-type': 'application/json' }, raw: '' } : reply;
    },
  }),
  expected: {
    broken: ['create'],
    // create-ids-unique-at-scale: no create of the run gave an integer id, so it creates a round of its own and judges each.
    failed: ['create-ids-unique-at-scale', 'list-not-paginated'],
    error: ['create-listed'],
  },
} satisfies Fault;
