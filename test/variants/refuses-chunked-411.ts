import type { CorrectVariant } from '../support/fault.js';

/**
 * Refuses every request body framed with Transfer-Encoding: chunked with 411 Length
 * Required and an Error body, as servers and gateways that need the length up front do
 * (nginx before 1.3.9, many serverless front doors): the honest refusal of RFC 9110
 * §15.5.12, a transport policy. Bodies with a Content-Length are answered as usual.
 */
export default {
  allowedBy: 'RFC 9110 §15.5.12',
  variation: (base) => ({
    async respond(req) {
      if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined) return base.error(411, 'length_required', 'a request body needs a Content-Length');
      return base.respond(req);
    },
  }),
  observes: [/^request bodies sent chunked are refused \(411 Length Required\): a transport policy/],
  observedBy: 'chunked-body-answered',
} satisfies CorrectVariant;
