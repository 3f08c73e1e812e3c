import type { CorrectVariant } from '../support/fault.js';

/** Treats a null description as absent, as many frameworks do for optional fields. */
export default {
  allowedBy: '2',
  variation: (base) => ({
    validateNewCategory(value) {
      if (typeof value === 'object' && value !== null && 'description' in value && value.description === null) {
        const { description: _null, ...rest } = value;
        return base.validateNewCategory(rest);
      }
      return base.validateNewCategory(value);
    },
  }),
} satisfies CorrectVariant;
