import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1: the body is read by Content-Length alone, as WSGI servers without
 * chunked support do (`wsgi.input.read(int(CONTENT_LENGTH or 0))`): a body framed with
 * Transfer-Encoding: chunked (RFC 9112 §7.1), as a client streaming its body sends it,
 * reads as empty and is refused as missing (400).
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    async createCategory(req) {
      return base.createCategory(req.headers['content-length'] === undefined ? { ...req, body: Buffer.alloc(0) } : req);
    },
  }),
  expected: {
    failed: ['client-forms-equivalent'],
    mayFail: ['create-valid-bodies'],
  },
} satisfies Fault;
