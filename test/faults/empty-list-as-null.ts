import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.1: a Go handler marshals the list from a nil slice when the store is empty
 * (`var categories []Category`), and encoding/json writes a nil slice as `null`, not `[]`.
 * Only a list of an empty store shows it: the run's first look, made before anything is
 * written.
 */
export default {
  breaks: '4.1',
  variation: (base, { store }) => ({
    async listCategories(req) {
      return store.size === 0 ? { status: 200, body: null } : base.listCategories(req);
    },
  }),
  expected: {
    failed: ['list-answers-200-array'],
  },
} satisfies Fault;
