import type { Fault } from '../support/fault.js';

/**
 * Breaks 5/R2: a request without the Authorization header is answered as FastAPI's
 * HTTPBearer does by default: 403 {"detail": "Not authenticated"}, not 401 with an Error.
 */
export default {
  breaks: '5/R2',
  variation: (base) => ({
    unauthorized(req) {
      if (req.headers.authorization !== undefined) return base.unauthorized(req);
      return { status: 403, body: { detail: 'Not authenticated' } };
    },
  }),
  expected: {
    failed: [
      'answers-allowed-status',
      'auth-key-in-query',
      'auth-key-outside-authorization',
      'auth-rejects-generated-credentials',
      'create-401-missing',
      'error-body-is-error',
      'list-401-missing',
      'model-based-sequences',
      'orders-requires-auth',
      'pets-requires-auth',
    ],
  },
} satisfies Fault;
