import type { Fault } from '../support/fault.js';

/** nginx's default `client_max_body_size` is 1m; this proxy was set to 64k. */
const LIMIT_BYTES = 64 * 1024;

/**
 * Breaks 4.2/R3 and 7: a reverse proxy in front of the service refuses bodies over 64 KiB
 * with its own HTML 413 page before the request reaches the service, so an
 * unauthenticated create with a large body is answered 413, not 401 ("regardless of the
 * body"), and the answer is not an Error.
 */
export default {
  breaks: '4.2/R3',
  variation: (base) => ({
    async respond(req) {
      if (req.body.byteLength > LIMIT_BYTES || req.bodyTooLarge) {
        return {
          status: 413,
          headers: { 'content-type': 'text/html' },
          raw: '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>',
        };
      }
      return base.respond(req);
    },
  }),
  expected: {
    failed: ['auth-rejects-generated-credentials', 'error-body-is-error', 'error-content-type-json'],
  },
} satisfies Fault;
