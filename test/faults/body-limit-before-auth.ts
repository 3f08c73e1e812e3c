import type { Fault } from '../support/fault.js';
import { nginxBodyLimit } from '../support/refusals.js';

/**
 * Breaks 4.2/R3 and 7: a reverse proxy in front of the service refuses bodies over 64 KiB
 * (nginx's default `client_max_body_size` is 1m; this one was set to 64k) with its own
 * HTML 413 page before the request reaches the service, so an unauthenticated create with
 * a large body is answered 413, not 401 ("regardless of the body"), and the answer is not
 * an Error.
 */
export default {
  breaks: '4.2/R3',
  variation: nginxBodyLimit(64 * 1024),
  expected: {
    failed: ['auth-rejects-generated-credentials', 'create-bodies-beyond-parser-limits', 'error-body-is-error', 'error-content-type-json'],
  },
} satisfies Fault;
