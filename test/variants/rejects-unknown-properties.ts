import type { CorrectVariant } from '../support/fault.js';

/** Refuses bodies with properties beyond NewCategory (a client-supplied id among them) with 400. */
export default {
  allowedBy: '2',
  variation: (base) => ({
    validateNewCategory(value) {
      const extra = typeof value === 'object' && value !== null ? Object.keys(value).filter((k) => k !== 'name' && k !== 'description') : [];
      return extra.length > 0 ? { ok: false, message: `unknown properties: ${extra.join(', ')}` } : base.validateNewCategory(value);
    },
  }),
} satisfies CorrectVariant;
