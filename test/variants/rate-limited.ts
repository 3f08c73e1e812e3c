import type { Variation } from '../../src/reference/behaviour.js';
import type { CorrectVariant } from '../support/fault.js';

/**
 * A token bucket of `rate` requests per second with a burst of as many: past it,
 * `429 Too Many Requests` with an Error body and `Retry-After: 1`.
 */
export function rateLimiter(rate: number): Variation {
  return (base) => {
    let tokens = rate;
    let last = performance.now();
    return {
      async respond(req) {
        const now = performance.now();
        tokens = Math.min(rate, tokens + ((now - last) * rate) / 1000);
        last = now;
        if (tokens < 1) {
          const reply = base.error(429, 'rate_limited', `more than ${rate} requests per second`);
          return { ...reply, headers: { ...reply.headers, 'retry-after': '1' } };
        }
        tokens -= 1;
        return base.respond(req);
      },
    };
  };
}

/**
 * Behind a rate limiter of 40 requests per second: section 8 says rate limits exist but
 * are not shown; RFC 6585 §4 defines the answer.
 */
export default {
  allowedBy: '8, RFC 6585 §4',
  variation: rateLimiter(40),
} satisfies CorrectVariant;
