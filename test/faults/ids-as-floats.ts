import type { Fault } from '../support/fault.js';

/** Breaks 2 (id: integer, int64): ids carry a fraction (1.5), as a float column would. */
export default {
  breaks: '2',
  variation: (base) => ({ represent: (category) => ({ ...base.represent(category), id: Number(category.id) + 0.5 }) }),
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
