import type { CorrectVariant } from '../support/fault.js';
import { delayedBy } from '../support/targets.js';

/** Answers after 5 ms: section 8 sets no timing. */
export default {
  allowedBy: '8',
  variation: delayedBy(5),
} satisfies CorrectVariant;
