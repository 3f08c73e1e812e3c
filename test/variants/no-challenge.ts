import type { CorrectVariant } from '../support/fault.js';

/** Omits WWW-Authenticate on 401: an HTTP should-level finding that must not change the verdict. */
export default {
  allowedBy: '5 (the spec does not require the header)',
  variation: (base) => ({ unauthorized: (req) => ({ ...base.unauthorized(req), headers: {} }) }),
  expectedNotPassed: ['unauthorized-invalid-token', 'unauthorized-has-challenge'],
} satisfies CorrectVariant;
