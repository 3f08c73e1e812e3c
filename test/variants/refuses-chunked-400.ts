import type { CorrectVariant } from '../support/fault.js';

/**
 * Reads a request body by its Content-Length alone, as Django's development server and
 * WSGI servers without chunked support do (`wsgi.input.read(int(CONTENT_LENGTH or 0))`):
 * a body framed with Transfer-Encoding: chunked reads as empty, and is refused as missing
 * (400, an Error body). Every request with a Content-Length, which curl, Python requests,
 * axios, fetch and Java's HttpClient all send for a JSON body, is answered correctly. RFC
 * 9112 §7.1 asks a recipient to parse chunked bodies (a should failure: 411 is the honest
 * refusal); the interface does not rely on them.
 */
export default {
  allowedBy: 'RFC 9112 §7.1 (should)',
  variation: (base) => ({
    async createCategory(req) {
      return base.createCategory(req.headers['content-length'] === undefined ? { ...req, body: Buffer.alloc(0) } : req);
    },
  }),
  expectedNotPassed: ['chunked-body-answered'],
} satisfies CorrectVariant;
