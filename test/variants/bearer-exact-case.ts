import type { CorrectVariant } from '../support/fault.js';

/** Accepts only the exact spelling "Bearer": 5/R1 writes it so, and no check sends another valid spelling. */
export default {
  allowedBy: '5/R1',
  variation: (_base, { apiKey }) => ({ authorize: (header) => header === `Bearer ${apiKey}` }),
} satisfies CorrectVariant;
