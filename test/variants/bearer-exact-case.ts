import type { CorrectVariant } from '../support/fault.js';

/**
 * Accepts only the exact spelling "Bearer": 5/R1 writes it so, and only the should-level
 * check of RFC 9110 §11.1 sends another valid spelling.
 */
export default {
  allowedBy: '5/R1',
  variation: (_base, { apiKey }) => ({ authorize: (header) => header === `Bearer ${apiKey}` }),
  expectedNotPassed: ['auth-scheme-case-insensitive'],
} satisfies CorrectVariant;
