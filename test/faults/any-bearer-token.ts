import type { Fault } from '../support/fault.js';

/** Breaks 5/R2: any Authorization header starting with "Bearer" is accepted, whatever the token. */
export default {
  breaks: '5/R2',
  variation: () => ({ authorize: (header) => /^bearer\b/i.test(header ?? '') }),
  expected: {
    failed: [
      ...['empty-token', 'unknown-key', 'key-char-added', 'key-char-removed', 'key-char-changed', 'key-case-swapped'].flatMap(
        (v) => [`create-401-${v}`, `list-401-${v}`],
      ),
      // The scope checks send an unknown bearer key too, which this fault lets through.
      'pets-requires-auth',
      'orders-requires-auth',
    ],
  },
} satisfies Fault;
