import type { Fault } from '../support/fault.js';

/**
 * Breaks 7: errors carry Spring Boot's default body {timestamp, status, error, path}
 * (no code, no message since Boot 2.3), not the Error shape.
 */
export default {
  breaks: '7',
  variation: (base) => ({
    error(status, code, message) {
      const reply = base.error(status, code, message);
      const reason = { 400: 'Bad Request', 401: 'Unauthorized' }[status] ?? 'Internal Server Error';
      return { ...reply, body: { timestamp: '2026-11-21T20:00:00.000+00:00', status, error: reason, path: '/v1/categories' } };
    },
  }),
  expected: {
    failed: ['auth-rejects-generated-credentials', 'create-rejects-invalid-bodies', 'error-body-is-error'],
  },
} satisfies Fault;
