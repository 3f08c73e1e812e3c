import type { Fault } from '../support/fault.js';

/** Breaks 7: error responses are labelled text/plain although their body is JSON. */
export default {
  breaks: '7',
  variation: (base) => ({
    error: (status, code, message) => ({ ...base.error(status, code, message), headers: { 'content-type': 'text/plain' } }),
  }),
  expected: {
    failed: ['error-content-type-json'],
  },
} satisfies Fault;
