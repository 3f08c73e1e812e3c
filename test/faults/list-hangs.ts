import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.1: the list handler never answers (a query that waits on a lock forever), while
 * authentication still answers 401 at once and creates work. The target is reachable and
 * judged: every check that needs the list fails with no response within the deadline.
 */
export default {
  breaks: '4.1',
  variation: () => ({
    listCategories: () => new Promise(() => {}),
  }),
  expected: {
    failed: [
      'auth-rejects-generated-credentials',
      'create-concurrent-ids-unique',
      'create-listed',
      'create-same-name-twice',
      'list-answers-200-array',
      'list-ids-unique',
      'list-items-are-categories',
      'list-not-paginated',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
