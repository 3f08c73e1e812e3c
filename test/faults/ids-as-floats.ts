import type { Fault } from '../support/fault.js';

/** Breaks 2 (id: integer, int64): ids carry a fraction (1.5), as a float column would. */
export default {
  breaks: '2',
  variation: (base) => ({ represent: (category) => ({ ...base.represent(category), id: Number(category.id) + 0.5 }) }),
  expected: {
    broken: ['create'],
    // create-ids-unique-at-scale: no create of the run gave an integer id, so it creates a round of its own and judges each.
    failed: ['create-ids-unique-at-scale', 'list-ids-unique', 'list-items-are-categories', 'list-not-paginated'],
    error: ['create-listed'],
  },
} satisfies Fault;
