import type { Fault } from '../support/fault.js';

/** Breaks 4.2/R1: the description is accepted but never returned. */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    represent(category) {
      const { description: _dropped, ...rest } = base.represent(category);
      return rest;
    },
  }),
  expected: {
    failed: [
      'chunked-body-created-exactly',
      'client-forms-equivalent',
      'create-same-name-twice',
      'create-unicode',
      'create-valid-bodies',
      'create-with-description',
      'edge-empty-name',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
