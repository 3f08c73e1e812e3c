import type { Fault } from '../support/fault.js';

/** Breaks 5/R2: any Authorization header starting with "Bearer" is accepted, whatever the token. */
export default {
  breaks: '5/R2',
  variation: () => ({ authorize: (header) => /^bearer\b/i.test(header ?? '') }),
  expected: {
    failed: [
      'auth-rejects-generated-credentials',
      'create-401-empty-token',
      'create-401-key-case-swapped',
      'create-401-key-char-added',
      'create-401-key-char-changed',
      'create-401-key-char-removed',
      'create-401-unknown-key',
      'list-401-empty-token',
      'list-401-key-case-swapped',
      'list-401-key-char-added',
      'list-401-key-char-changed',
      'list-401-key-char-removed',
      'list-401-unknown-key',
      'model-based-sequences',
      'orders-requires-auth',
      'pets-requires-auth',
      'unauthorized-invalid-token',
    ],
  },
} satisfies Fault;
