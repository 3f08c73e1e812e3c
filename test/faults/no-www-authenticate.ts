import type { Fault } from '../support/fault.js';

/** Breaks RFC 9110 §11.6.1 (should): 401 responses carry no WWW-Authenticate challenge. */
export default {
  breaks: '5',
  variation: (base) => ({ unauthorized: (req) => ({ ...base.unauthorized(req), headers: {} }) }),
  expected: {
    failed: ['unauthorized-has-challenge', 'unauthorized-invalid-token'],
  },
} satisfies Fault;
