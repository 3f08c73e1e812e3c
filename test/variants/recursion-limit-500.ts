import { depthOf } from '../faults/deep-nesting-crashes.js';
import type { CorrectVariant } from '../support/fault.js';

/** Frames a recursive walk of the body may take: Python's default recursion limit is 1,000. */
const RECURSION_LIMIT = 990;

/**
 * A parser at its framework's default limit, met without grace: Flask and Django REST
 * framework answer 500 to a body nested near 1,000 levels (Python's json raises
 * RecursionError, not ValueError). RFC 8259 §9 lets a parser limit depth, and the spec
 * leaves limits open (section 8): a robustness finding (should), never a must failure.
 */
export default {
  allowedBy: '8 (limits are not shown); RFC 8259 §9 (a parser may limit nesting)',
  variation: (base) => ({
    decodeJson(body) {
      const decoded = base.decodeJson(body);
      if (decoded.ok && depthOf(decoded.value) > RECURSION_LIMIT) throw new RangeError('maximum recursion depth exceeded while decoding a JSON object');
      return decoded;
    },
  }),
  expectedNotPassed: ['create-bodies-beyond-parser-limits'],
} satisfies CorrectVariant;
