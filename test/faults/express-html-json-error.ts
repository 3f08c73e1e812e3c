import type { Fault } from '../support/fault.js';

/**
 * Breaks 7: malformed JSON is refused the way Express's default error handler does it:
 * 400 with an HTML page (body-parser's SyntaxError rendered by finalhandler), not an Error.
 */
export default {
  breaks: '7',
  variation: (base) => ({
    async createCategory(req) {
      const decoded = base.decodeJson(req.body);
      if (decoded.ok || req.body.byteLength === 0) return base.createCategory(req);
      const page =
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n' +
        `<pre>SyntaxError: ${decoded.message}<br> &nbsp; &nbsp;at JSON.parse (&lt;anonymous&gt;)</pre>\n</body>\n</html>\n`;
      return { status: 400, headers: { 'content-type': 'text/html; charset=utf-8', 'x-powered-by': 'Express' }, raw: page };
    },
  }),
  expected: {
    failed: ['create-rejects-invalid-bodies', 'error-body-is-error', 'error-content-type-json'],
  },
} satisfies Fault;
