import type { Fault } from '../support/fault.js';

/**
 * Breaks RFC 9110 §11.1 (should): the scheme is matched case-sensitively, so `bearer <key>`
 * is refused, as a hand-written `startsWith('Bearer ')` does.
 */
export default {
  breaks: '5',
  variation: (base) => ({ authorize: (header) => (header ?? '').startsWith('Bearer ') && base.authorize(header) }),
  expected: {
    failed: ['auth-scheme-case-insensitive'],
  },
} satisfies Fault;
