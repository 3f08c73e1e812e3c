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
  hangs: 'an authorized GET /categories',
  expected: {
    broken: ['list'],
    failed: [],
    // The key under another spelling of the scheme is on the keyed route, which hangs: blocked, not sent.
    error: ['auth-scheme-case-insensitive'],
  },
} satisfies Fault;
