import type { Fault } from '../support/fault.js';

/** Breaks 5/R2: the key is compared without regard to letter case. */
export default {
  breaks: '5/R2',
  variation: (_base, { apiKey }) => ({
    authorize: (header) => /^bearer +(\S+)$/i.exec(header ?? '')?.[1]?.toLowerCase() === apiKey.toLowerCase(),
  }),
  expected: {
    failed: [
      'auth-rejects-generated-credentials',
      'create-401-key-case-swapped',
      'list-401-key-case-swapped',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
