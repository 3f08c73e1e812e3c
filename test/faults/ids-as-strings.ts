import type { Fault } from '../support/fault.js';

/** Breaks 2 (id: integer, int64): ids are sent as JSON strings ("1"). */
export default {
  breaks: '2',
  variation: (base) => ({ represent: (category) => ({ ...base.represent(category), id: String(category.id) }) }),
  expected: {
    failed: ['create-name-only', 'create-with-description', 'create-unicode', 'create-ids-unique', 'create-ignores-client-id', 'list-items-are-categories', 'list-ids-unique'],
    error: ['create-listed'],
  },
} satisfies Fault;
