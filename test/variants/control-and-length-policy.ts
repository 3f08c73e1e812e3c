import type { CorrectVariant } from '../support/fault.js';
import { longerThan, namesMatching, refusing } from '../support/refusals.js';

/**
 * Refuses, with 400 and an Error body, every name holding a control character (tab and
 * line breaks included) and every name over 100 characters: a policy, not a fault.
 * Section 4.2 allows 400 for "invalid values" without defining them, and section 8 leaves
 * limits open. Descriptions are not restricted.
 */
export default {
  allowedBy: '4.2, 8',
  variation: refusing(namesMatching(/[\u0000-\u001f\u007f]/, 'name must not hold control characters'), longerThan('name', 100)),
  observes: [/^names holding a control character, tab or line break included, are refused \(400\)/, /^names longer than 100 characters are refused \(400\)/],
} satisfies CorrectVariant;
