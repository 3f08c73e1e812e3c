import type { Fault } from '../support/fault.js';

/** Breaks 7: the Error status field is a string ("400") instead of an integer. */
export default {
  breaks: '7',
  variation: (base) => ({
    error: (status, code, message) => ({ ...base.error(status, code, message), body: { code, message, status: String(status) } }),
  }),
  expected: {
    failed: [
      'auth-rejects-generated-credentials',
      'create-rejects-invalid-bodies',
      'error-body-is-error',
      'error-status-matches-http',
    ],
  },
} satisfies Fault;
