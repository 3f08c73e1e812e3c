import type { Fault } from '../support/fault.js';

/** Breaks 4 ("All payloads are application/json"): successful responses are labelled text/plain. */
export default {
  breaks: '4',
  variation: (base) => ({
    write(res, reply) {
      const headers = reply.status < 300 ? { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } : reply.headers;
      base.write(res, { ...reply, headers });
    },
  }),
  expected: {
    failed: ['success-content-type-json'],
  },
} satisfies Fault;
