import type { Fault } from '../support/fault.js';

/** Breaks 7: every Error body says status 400, whatever the HTTP status. */
export default {
  breaks: '7',
  variation: (base) => ({ error: (status, code, message) => ({ ...base.error(status, code, message), body: { code, message, status: 400 } }) }),
  expected: {
    failed: ['auth-rejects-generated-credentials', 'error-status-matches-http'],
  },
} satisfies Fault;
