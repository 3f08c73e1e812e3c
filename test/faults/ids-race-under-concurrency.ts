import { setTimeout as sleep } from 'node:timers/promises';
import type { Fault } from '../support/fault.js';

/** Breaks 2 (unique id): the id counter is read, then written after an await, so parallel creates share ids. */
export default {
  breaks: '2',
  variation: (base, { store }) => {
    let next = 1n;
    return {
      async createCategory(req) {
        const decoded = base.decodeJson(req.body);
        if (!decoded.ok) return base.error(400, 'invalid_json', decoded.message);
        const fields = base.validateNewCategory(decoded.value);
        if (!fields.ok) return base.error(400, 'invalid_body', fields.message);
        const id = next;
        await sleep(2); // e.g. a database round trip between reading and writing the counter
        next = id + 1n;
        const category = store.create(fields.value);
        category.id = id;
        return { status: 201, body: base.represent(category) };
      },
    };
  },
  expected: {
    failed: ['create-concurrent-ids-unique'],
    // The example checks and the properties' concurrent inputs collide too, depending on timing.
    mayFail: ['chunked-body-created-exactly', 'client-forms-equivalent', 'create-ids-unique', 'create-ids-unique-at-scale', 'create-listed', 'create-same-name-twice', 'create-valid-bodies', 'list-ids-unique', 'model-based-sequences'],
  },
} satisfies Fault;
