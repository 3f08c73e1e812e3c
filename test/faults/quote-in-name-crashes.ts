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
    // Shrinks to a name of at most two characters, one of them the quote, and no description.
    'create-valid-bodies': (shrunk) => {
      const { name, description } = JSON.parse(shrunk) as { name: string; description?: string };
      return name.includes('"') && [...name].length <= 2 && description === undefined;
    },
  },
} satisfies Fault;
