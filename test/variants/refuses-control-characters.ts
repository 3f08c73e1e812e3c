import type { CorrectVariant } from '../support/fault.js';

/**
 * Refuses values holding NUL or another control character (not tab or line breaks) with
 * 400 and an Error body: whether such a value is a valid name the spec does not settle.
 */
export default {
  allowedBy: '2',
  variation: (base) => ({
    validateNewCategory(value) {
      const result = base.validateNewCategory(value);
      if (result.ok && /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(`${result.value.name}${result.value.description ?? ''}`)) {
        return { ok: false, message: 'control characters are not allowed' };
      }
      return result;
    },
  }),
  observes: [/^names holding a control character \(tab and line breaks accepted\) are refused \(400\)/, /^descriptions holding a control character \(tab and line breaks accepted\) are refused \(400\)/],
} satisfies CorrectVariant;
