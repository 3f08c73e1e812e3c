import type { Fault } from '../support/fault.js';

/** Breaks 4.2 (400 row): a JSON null body crashes the handler (500) instead of being refused with 400. */
export default {
  breaks: '4.2',
  variation: (base) => ({
    validateNewCategory(value) {
      const { name } = value as { name?: unknown }; // throws on null, as unguarded handlers do
      void name;
      return base.validateNewCategory(value);
    },
  }),
  expected: {
    failed: [
      'create-rejects-invalid-bodies',
      'create-rejects-non-object',
      'model-based-sequences',
      'no-server-error',
    ],
  },
} satisfies Fault;
