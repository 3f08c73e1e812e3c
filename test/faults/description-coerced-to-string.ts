import type { Fault } from '../support/fault.js';

/** Breaks 4.2 (400 row): a description that is not a string is converted to one and accepted. */
export default {
  breaks: '4.2',
  variation: (base) => ({
    validateNewCategory(value) {
      if (typeof value !== 'object' || value === null || !('description' in value) || value.description === null || typeof value.description === 'string') {
        return base.validateNewCategory(value);
      }
      return base.validateNewCategory({ ...value, description: JSON.stringify(value.description) });
    },
  }),
  expected: {
    failed: ['create-rejects-invalid-bodies', 'create-rejects-wrong-type-description', 'model-based-sequences'],
  },
} satisfies Fault;
