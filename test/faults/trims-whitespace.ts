import type { Fault } from '../support/fault.js';
import { storedAs } from '../support/stored-as.js';

/**
 * Breaks 4.2/R1: strips whitespace from the ends of every string field before storing it,
 * as pydantic's `str_strip_whitespace`, Spring's `StringTrimmerEditor` or a Rails
 * `squish` callback do. The created Category no longer carries the name that was sent.
 */
export default {
  breaks: '4.2/R1',
  variation: storedAs((text) => text.trim()),
  expected: {
    failed: ['create-valid-bodies', 'model-based-sequences'],
  },
} satisfies Fault;
