import type { Fault } from '../support/fault.js';

/** Breaks 4.2 (400 row): an empty request body crashes the handler (500) instead of being refused with 400. */
export default {
  breaks: '4.2',
  variation: (base) => ({
    decodeJson(body) {
      if (body.byteLength === 0) throw new Error('Unexpected end of JSON input');
      return base.decodeJson(body);
    },
  }),
  expected: {
    failed: [
      'create-rejects-invalid-bodies',
      'create-rejects-missing-body',
      'model-based-sequences',
      'no-server-error',
    ],
  },
} satisfies Fault;
