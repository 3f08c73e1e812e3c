import type { Fault } from '../support/fault.js';

/** Breaks 2 (id: integer, int64): ids are sent as JSON strings ("1"). */
export default {
  breaks: '2',
  variation: (base) => ({ represent: (category) => ({ ...base.represent(category), id: String(category.id) }) }),
  expected: {
    broken: ['create'],
    // create-ids-unique-at-scale: no create of the run gave an integer id, so it creates a round of its own and judges each.
    failed: ['create-ids-unique-at-scale', 'list-ids-unique', 'list-items-are-categories', 'list-not-paginated'],
    error: ['create-listed'],
  },
} satisfies Fault;
