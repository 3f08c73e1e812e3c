import type { Fault } from '../support/fault.js';

/** Breaks 4.2/R1: names are stored in a 32-character column, so longer ones come back cut. */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    validateNewCategory(value) {
      const result = base.validateNewCategory(value);
      return result.ok ? { ok: true, value: { ...result.value, name: [...result.value.name].slice(0, 32).join('') } } : result;
    },
  }),
  expected: {
    failed: [
      'chunked-body-created-exactly',
      'client-forms-equivalent',
      'create-concurrent-ids-unique',
      'create-bodies-beyond-parser-limits',
      'create-deep-bodies',
      'create-same-name-twice',
      'create-unicode',
      'create-valid-bodies',
      'create-with-description',
      'edge-control-characters',
      'edge-long-name',
      'edge-unknown-properties',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
