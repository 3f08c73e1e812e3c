import type { CorrectVariant } from '../support/fault.js';

/**
 * Refuses names over 255 characters and descriptions over 1,024 with 400 and an Error
 * body (VARCHAR(255) and VARCHAR(1024) columns in utf8mb4, validated first), counted in
 * characters: section 8 says length limits exist but are not shown.
 */
export default {
  allowedBy: '8',
  variation: (base) => ({
    validateNewCategory(value) {
      const result = base.validateNewCategory(value);
      if (!result.ok) return result;
      const { name, description } = result.value;
      if ([...name].length > 255) return { ok: false, message: 'name is longer than 255 characters' };
      if (description !== undefined && [...description].length > 1024) return { ok: false, message: 'description is longer than 1024 characters' };
      return result;
    },
  }),
  observes: [/^names longer than 255 characters are refused \(400\)/],
} satisfies CorrectVariant;
