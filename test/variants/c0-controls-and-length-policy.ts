import type { CorrectVariant } from '../support/fault.js';
import { longerThan, namesMatching, refusing } from '../support/refusals.js';

/**
 * Refuses, with 400 and an Error body, every name holding a C0 control character
 * (U+0000 to U+001F: tab and line breaks included, DEL not) and every name over 100
 * characters, as a validator written `/[\x00-\x1f]/` does: a policy, not a fault. Section
 * 4.2 allows 400 for "invalid values" without defining them, and section 8 leaves limits
 * open. Descriptions are not restricted.
 */
export default {
  allowedBy: '4.2, 8',
  variation: refusing(namesMatching(/[\u0000-\u001f]/, 'name must not hold control characters'), longerThan('name', 100)),
  observes: [/^names holding a C0 control character, tab or line break included, are refused \(400\)/, /^names longer than 100 characters are refused \(400\)/],
} satisfies CorrectVariant;
