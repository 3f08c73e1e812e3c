import type { Fault } from '../support/fault.js';

/**
 * Breaks 5/R2: the token is compared loosely, its first word alone (a split on whitespace
 * and commas, as a hand-written parser of `Authorization` does), so the key followed by a
 * second word, or by a comma and another key, is accepted.
 */
export default {
  breaks: '5/R2',
  variation: (base, { apiKey }) => ({
    authorize: (header) => {
      const [scheme, token] = (header ?? '').trim().split(/[\s,]+/);
      return scheme?.toLowerCase() === 'bearer' && token === apiKey && base.authorize(`Bearer ${token}`);
    },
  }),
  expected: { failed: ['auth-rejects-generated-credentials'] },
  counterexamples: {
    'auth-rejects-generated-credentials': (shown) => /^listCategories, (the valid bearer credential twice in one Authorization header \(Bearer KEY, Bearer KEY\)|the valid key followed by a second word after a space \(Bearer KEY x\))$/.test(shown),
  },
} satisfies Fault;
