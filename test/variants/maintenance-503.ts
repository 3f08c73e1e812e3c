import type { CorrectVariant } from '../support/fault.js';

/**
 * A restart during the run: while it lasts (requests 31 to 40), the load balancer answers
 * `503 Service Unavailable` with `Retry-After: 1` (RFC 9110 §15.6.4, §10.2.3): the
 * requests are to be sent again once it is over, not judged.
 */
export default {
  allowedBy: 'RFC 9110 §15.6.4, §10.2.3',
  variation: (base) => {
    let requests = 0;
    return {
      async respond(req) {
        requests++;
        if (requests > 30 && requests <= 40) {
          const reply = base.error(503, 'unavailable', 'restarting, try again');
          return { ...reply, headers: { ...reply.headers, 'retry-after': '1' } };
        }
        return base.respond(req);
      },
    };
  },
} satisfies CorrectVariant;
