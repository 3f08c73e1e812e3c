import type { Fault } from '../support/fault.js';

/** Breaks 4.1/R1: the list is a snapshot taken at start-up, so new categories never appear. */
export default {
  breaks: '4.1/R1',
  variation: (base, { store }) => {
    const snapshot = store.list();
    return { listCategories: async () => ({ status: 200, body: snapshot.map((category) => base.represent(category)) }) };
  },
  expected: {
    failed: [
      'chunked-body-created-exactly',
      'client-forms-equivalent',
      'create-concurrent-ids-unique',
      'create-listed',
      'create-same-name-twice',
      'create-valid-bodies',
      'list-not-paginated',
      'model-based-sequences',
    ],
    error: ['list-ids-unique', 'list-items-are-categories'],
  },
} satisfies Fault;
