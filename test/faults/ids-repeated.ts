import type { Fault } from '../support/fault.js';

/** Breaks 2 (id: unique identifier): every category is given the id 1. */
export default {
  breaks: '2',
  variation: (base) => ({ represent: (category) => ({ ...base.represent(category), id: 1n }) }),
  expected: {
    // Concurrent model sequences each see the others' categories under the same id 1.
    mayFail: ['chunked-body-created-exactly', 'model-based-sequences'],
    failed: [
      'client-forms-equivalent',
      'create-concurrent-ids-unique',
      'create-ids-unique',
      'create-ids-unique-at-scale',
      'create-listed',
      'create-same-name-twice',
      'create-valid-bodies',
      'list-ids-unique',
    ],
  },
} satisfies Fault;
