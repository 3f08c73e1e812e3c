import type { Fault } from '../support/fault.js';

/** Breaks 2 (id: integer, int64): ids are sent as JSON strings ("1"). */
export default {
  breaks: '2',
  variation: (base) => ({ represent: (category) => ({ ...base.represent(category), id: String(category.id) }) }),
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
      'list-ids-unique',
      'list-items-are-categories',
      'list-not-paginated',
      'model-based-sequences',
    ],
    error: ['create-listed'],
  },
} satisfies Fault;
