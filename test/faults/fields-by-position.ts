import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1 with section 2: a hand-written decoder maps the body's string members onto
 * the row (name, description) by position, not by key. Bodies with `name` first are stored
 * exactly; one with `description` first, as Go's encoding/json writes a map (keys sorted),
 * is stored with the two swapped.
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    decodeJson(body) {
      const decoded = base.decodeJson(body);
      if (!decoded.ok || decoded.value === null || typeof decoded.value !== 'object' || Array.isArray(decoded.value)) return decoded;
      const object = decoded.value as Record<string, unknown>;
      const positional = Object.keys(object).filter((key) => key === 'name' || key === 'description');
      const row = Object.fromEntries(positional.map((key, i) => [['name', 'description'][i]!, object[key]]));
      return { ok: true, value: { ...object, ...row } };
    },
  }),
  expected: {
    failed: [
      'client-forms-equivalent',
      'create-rejects-invalid-bodies',
      'create-rejects-missing-name',
      'model-based-sequences',
    ],
    mayFail: ['create-valid-bodies'],
  },
} satisfies Fault;
