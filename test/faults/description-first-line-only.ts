import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1: descriptions are kept in a line-oriented store (a CSV export, a
 * `readline`-fed cache), so only the first line of a multi-line description survives.
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    represent(category) {
      const shown = base.represent(category);
      if (typeof shown.description === 'string') shown.description = shown.description.split(/\r\n|\r|\n/, 1)[0];
      return shown;
    },
  }),
  expected: {
    failed: ['create-valid-bodies', 'model-based-sequences'],
  },
} satisfies Fault;
