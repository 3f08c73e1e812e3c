import type { Fault } from '../support/fault.js';

/** Breaks 5/R2: a request without an Authorization header is treated as authenticated. */
export default {
  breaks: '5/R2',
  variation: (base) => ({ authorize: (header) => header === undefined || base.authorize(header) }),
  expected: {
    failed: [
      'auth-key-in-query',
      'auth-key-outside-authorization',
      'auth-path-spellings',
      'auth-rejects-generated-credentials',
      'create-401-missing',
      'list-401-missing',
      'model-based-sequences',
      'orders-requires-auth',
      'pets-requires-auth',
    ],
  },
} satisfies Fault;
