import type { Fault } from '../support/fault.js';

/** Breaks 7: errors use a framework's default shape {statusCode, error, message} instead of Error. */
export default {
  breaks: '7',
  variation: (base) => ({
    error: (status, code, message) => ({ ...base.error(status, code, message), body: { statusCode: status, error: code, message } }),
  }),
  // No Error body carries a status field, so the status comparison has nothing to judge.
  expected: {
    failed: ['auth-rejects-generated-credentials', 'create-rejects-invalid-bodies', 'error-body-is-error'],
    skipped: ['error-status-matches-http'],
  },
} satisfies Fault;
