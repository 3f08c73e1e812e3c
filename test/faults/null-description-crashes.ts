import type { Fault } from '../support/fault.js';

/** Breaks robustness (info, 2): a null description crashes the handler (500) instead of a 201 or 400. */
export default {
  breaks: '2',
  variation: (base) => ({
    validateNewCategory(value) {
      const description = (value as { description?: unknown } | null)?.description;
      if (description === null) throw new TypeError("Cannot read properties of null (reading 'trim')");
      return base.validateNewCategory(value);
    },
  }),
  expected: { failed: ['create-null-description'] },
} satisfies Fault;
