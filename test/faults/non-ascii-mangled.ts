import type { Fault } from '../support/fault.js';

/** Breaks 4.2/R1: request bodies are decoded as Latin-1, so non-ASCII text comes back mangled. */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({ decodeJson: (body) => base.decodeJson(Buffer.from(body.toString('latin1'), 'utf8')) }),
  expected: {
    failed: ['create-unicode', 'create-valid-bodies', 'model-based-sequences'],
  },
  counterexamples: {
    // Shrinks to one non-ASCII character, with every other field at its smallest.
    'create-valid-bodies': (shrunk) => {
      const { name, description = '' } = JSON.parse(shrunk) as { name: string; description?: string };
      const text = [...name, ...description];
      return text.filter((c) => c > '\u007f').length === 1 && text.length <= 2;
    },
  },
} satisfies Fault;
