import type { Fault } from '../support/fault.js';

/** Breaks 5/R2: only the first 16 characters of the token are compared with the key. */
export default {
  breaks: '5/R2',
  variation: (_base, { apiKey }) => ({
    authorize: (header) => /^bearer +(\S+)$/i.exec(header ?? '')?.[1]?.slice(0, 16) === apiKey.slice(0, 16),
  }),
  expected: {
    failed: [
      'auth-rejects-generated-credentials',
      'create-401-key-char-added',
      'create-401-key-char-changed',
      'create-401-key-char-removed',
      'list-401-key-char-added',
      'list-401-key-char-changed',
      'list-401-key-char-removed',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
