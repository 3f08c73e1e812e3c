import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1 and section 2: names are a unique key, and a create is an
 * `INSERT … ON CONFLICT (name) DO UPDATE SET description = EXCLUDED.description`: the same
 * name sent twice overwrites the first category and returns its id again.
 */
export default {
  breaks: '4.2/R1',
  variation: (base, { store }) => ({
    async createCategory(req) {
      const decoded = base.decodeJson(req.body);
      const fields = decoded.ok ? base.validateNewCategory(decoded.value) : undefined;
      const existing = fields?.ok ? store.list().find((category) => category.name === fields.value.name) : undefined;
      if (!fields?.ok || !existing) return base.createCategory(req);
      if (fields.value.description === undefined) delete existing.description;
      else existing.description = fields.value.description;
      return { status: 201, body: base.represent(existing) };
    },
  }),
  expected: {
    failed: ['create-ids-unique-at-scale', 'create-same-name-twice', 'create-valid-bodies'],
    // When another check's create of the same name lands between its create and its list.
    mayFail: ['model-based-sequences'],
  },
} satisfies Fault;
