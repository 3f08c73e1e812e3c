import type { Fault } from '../support/fault.js';

/** Breaks 5/R1: the last word of the header is taken as the key, whatever the scheme (or none). */
export default {
  breaks: '5/R1',
  variation: (_base, { apiKey }) => ({ authorize: (header) => (header ?? '').trim().split(/\s+/).pop() === apiKey }),
  expected: {
    failed: [
      'auth-rejects-generated-credentials',
      'create-401-basic-scheme',
      'create-401-no-scheme',
      'list-401-basic-scheme',
      'list-401-no-scheme',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
