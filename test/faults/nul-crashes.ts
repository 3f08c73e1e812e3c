import type { Fault } from '../support/fault.js';

/**
 * Breaks 4 and 4.2/R1: a value holding NUL reaches PostgreSQL, whose text type cannot hold
 * it, and the unhandled driver error becomes a 500 (with an Error body). A server may
 * refuse such a value with 400; it may not crash on it.
 */
export default {
  breaks: '4',
  variation: (base) => ({
    validateNewCategory(value) {
      const result = base.validateNewCategory(value);
      if (result.ok && `${result.value.name}${result.value.description ?? ''}`.includes('\u0000')) {
        throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
      }
      return result;
    },
  }),
  expected: {
    failed: ['create-valid-bodies', 'edge-control-characters', 'model-based-sequences', 'no-server-error'],
  },
} satisfies Fault;
