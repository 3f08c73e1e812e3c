import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R2 and 7: invalid bodies are refused as FastAPI does by default: 422 with
 * {"detail": [{"loc", "msg", "type"}]} instead of 400 with an Error.
 */
export default {
  breaks: '4.2/R2',
  variation: (base) => ({
    async createCategory(req) {
      const reply = await base.createCategory(req);
      if (reply.status !== 400) return reply;
      const detail = [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: null }];
      return { status: 422, body: { detail } };
    },
  }),
  expected: {
    failed: [
      'answers-allowed-status',
      'create-rejects-invalid-bodies',
      'create-rejects-malformed-json',
      'create-rejects-missing-body',
      'create-rejects-missing-name',
      'create-rejects-non-object',
      'create-rejects-wrong-type-description',
      'create-rejects-wrong-type-name',
      'error-body-is-error',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
