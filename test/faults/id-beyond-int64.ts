import type { Fault } from '../support/fault.js';

/** Breaks 2 (id: int64): ids start at 2^63, one past the int64 range (JSON.parse would round them into range). */
export default {
  breaks: '2',
  variation: (base) => ({ represent: (category) => ({ ...base.represent(category), id: category.id + 2n ** 63n }) }),
  expected: {
    failed: ['create-name-only', 'create-with-description', 'create-unicode', 'create-ids-unique', 'create-ignores-client-id', 'list-items-are-categories', 'list-ids-unique'],
    error: ['create-listed'],
  },
} satisfies Fault;
