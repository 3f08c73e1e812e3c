import type { Fault } from '../support/fault.js';

/** Breaks 4.2 (400 row): a name that is not a string is converted to one (42 becomes "42") and accepted. */
export default {
  breaks: '4.2',
  variation: (base) => ({
    validateNewCategory(value) {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !('name' in value)) return base.validateNewCategory(value);
      return base.validateNewCategory({ ...value, name: String(value.name) });
    },
  }),
  expected: {
    failed: ['create-rejects-invalid-bodies', 'create-rejects-wrong-type-name', 'model-based-sequences'],
  },
} satisfies Fault;
