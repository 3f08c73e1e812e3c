import type { Fault } from '../support/fault.js';

/**
 * Breaks 5/R2: the comparison throws on a token holding a character outside ASCII, as
 * Python's `hmac.compare_digest` does on two `str` ("comparing strings with non-ASCII
 * characters is not supported"), and the client gets a 500 where the spec says 401.
 */
export default {
  breaks: '5/R2',
  variation: (base) => ({
    authorize: (header) => {
      const token = /^bearer +(\S+)$/i.exec(header ?? '')?.[1] ?? '';
      if (/[^\x00-\x7f]/.test(token)) throw new TypeError('comparing strings with non-ASCII characters is not supported');
      return base.authorize(header);
    },
  }),
  expected: { failed: ['auth-rejects-generated-credentials', 'no-server-error'], mayFail: ['model-based-sequences'] },
  counterexamples: {
    'auth-rejects-generated-credentials': (shown) => /^listCategories, the valid key followed by the byte E9/.test(shown),
  },
} satisfies Fault;
