import type { Fault } from '../support/fault.js';

/**
 * Breaks RFC 9745 and RFC 8594 (should, spec 9/R3): GET /pets/{petId} is deprecated with a
 * sunset date, but its answers carry neither Deprecation nor Sunset, as a service does
 * whose deprecation lives only in its changelog.
 */
export default {
  breaks: '9/R3',
  variation: (base) => ({
    async respond(req) {
      const reply = await base.respond(req);
      if (!req.path.startsWith('/v1/pets/')) return reply;
      const { deprecation: _deprecation, sunset: _sunset, ...headers } = reply.headers ?? {};
      return { ...reply, headers };
    },
  }),
  expected: {
    failed: ['pets-deprecation-signalled'],
  },
} satisfies Fault;
