import type { CorrectVariant } from '../support/fault.js';

/**
 * Refuses, with 400 and an Error body, every name holding a control character (tab and
 * line breaks included) and every name over 100 characters: a policy, not a fault.
 * Section 4.2 allows 400 for "invalid values" without defining them, and section 8 leaves
 * limits open. Descriptions are not restricted.
 */
export default {
  allowedBy: '4.2, 8',
  variation: (base) => ({
    validateNewCategory(value) {
      const result = base.validateNewCategory(value);
      if (!result.ok) return result;
      if (/[\u0000-\u001f\u007f]/.test(result.value.name)) return { ok: false, message: 'name must not hold control characters' };
      if ([...result.value.name].length > 100) return { ok: false, message: 'name is longer than 100 characters' };
      return result;
    },
  }),
  observes: [/^names holding a control character, tab or line break included, are refused \(400\)/, /^names longer than 100 characters are refused \(400\)/],
} satisfies CorrectVariant;
