import type { CorrectVariant } from '../support/fault.js';
import { longerThan, refusing } from '../support/refusals.js';

/**
 * Refuses names over 255 characters and descriptions over 1,024 with 400 and an Error
 * body (VARCHAR(255) and VARCHAR(1024) columns in utf8mb4, validated first), counted in
 * characters: section 8 says length limits exist but are not shown.
 */
export default {
  allowedBy: '8',
  variation: refusing(longerThan('name', 255), longerThan('description', 1024)),
  observes: [/^names longer than 255 characters are refused \(400\)/],
} satisfies CorrectVariant;
