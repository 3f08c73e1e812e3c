import type { Fault } from '../support/fault.js';

/** Java's String.hashCode, as a HashMap of keys computes it. */
function hashCode(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * Breaks 5/R2: keys are looked up by their hash and compared no further (a map keyed by
 * `String.hashCode`, as a hand-rolled cache of API keys does), so any token with the key's
 * hash is accepted.
 */
export default {
  breaks: '5/R2',
  variation: (_base, { apiKey }) => ({
    authorize: (header) => {
      const token = /^bearer +(\S+)$/i.exec(header ?? '')?.[1];
      return token !== undefined && hashCode(token) === hashCode(apiKey);
    },
  }),
  expected: { failed: ['auth-rejects-generated-credentials'], mayFail: ['model-based-sequences'] },
  counterexamples: {
    'auth-rejects-generated-credentials': (shown) => /^listCategories, another token with the valid key's Java String\.hashCode/.test(shown),
  },
} satisfies Fault;
