import type { Fault } from '../support/fault.js';
import { storedAs } from '../support/stored-as.js';

/**
 * Breaks 4.2/R1: the table's character set is MySQL's `utf8` (utf8mb3), which holds no
 * character outside the Basic Multilingual Plane; with strict mode off, each emoji or
 * astral ideograph is stored as `?`.
 */
export default {
  breaks: '4.2/R1',
  variation: storedAs((text) => text.replace(/[\u{10000}-\u{10FFFF}]/gu, '?')),
  expected: {
    failed: [
      'chunked-body-created-exactly',
      'client-forms-equivalent',
      'create-unicode',
      'create-valid-bodies',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
