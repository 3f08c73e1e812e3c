import type { Fault } from '../support/fault.js';

/** Breaks 4.2/R1: a name containing a double quote crashes the handler (500), as unescaped SQL would. */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    validateNewCategory(value) {
      const result = base.validateNewCategory(value);
      if (result.ok && result.value.name.includes('"')) throw new Error('syntax error at or near "\\""');
      return result;
    },
  }),
  expected: {
    failed: ['create-valid-bodies', 'model-based-sequences', 'no-server-error'],
  },
  counterexamples: {
    // Found by the coverage phase in every run, whatever the seed: its input with quotes in the name.
    'create-valid-bodies': (input) => input.startsWith('name: quotes, a backslash and markup: '),
  },
} satisfies Fault;
