import type { Fault } from '../support/fault.js';

/** Breaks 4.1/R1: creates answer 201 but nothing is stored, so the list never contains them. */
export default {
  breaks: '4.1/R1',
  variation: (base) => {
    let nextId = 1n;
    return {
      async createCategory(req) {
        const decoded = base.decodeJson(req.body);
        if (!decoded.ok) return base.error(400, 'invalid_json', decoded.message);
        const fields = base.validateNewCategory(decoded.value);
        if (!fields.ok) return base.error(400, 'invalid_body', fields.message);
        return { status: 201, body: base.represent({ id: nextId++, ...fields.value }) };
      },
    };
  },
  expected: {
    failed: [
      'chunked-body-created-exactly',
      'client-forms-equivalent',
      'create-concurrent-ids-unique',
      'create-listed',
      'create-same-name-twice',
      'create-valid-bodies',
      'list-not-paginated',
      'model-based-sequences',
    ],
    error: ['list-ids-unique', 'list-items-are-categories'],
  },
} satisfies Fault;
