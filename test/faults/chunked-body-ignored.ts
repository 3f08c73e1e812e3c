import type { Fault } from '../support/fault.js';

/**
 * Breaks section 4 (no answer the spec lists): the body is read into a buffer sized by the
 * Content-Length, as a servlet's `new byte[request.getContentLength()]` does. A body framed
 * with Transfer-Encoding: chunked (RFC 9112 §7.1) has none, -1: the allocation throws
 * (NegativeArraySizeException), and the container answers 500. A server that will not
 * read chunked bodies refuses them with 411 (test/variants/refuses-chunked-411.ts).
 */
export default {
  breaks: '4',
  variation: (base) => ({
    async createCategory(req) {
      if (req.headers['content-length'] === undefined) throw new Error('java.lang.NegativeArraySizeException: -1');
      return base.createCategory(req);
    },
  }),
  expected: {
    failed: ['no-server-error', 'chunked-body-answered'],
  },
} satisfies Fault;
