import type { CorrectVariant } from '../support/fault.js';

/**
 * Refuses every request body that is not `application/json` with 415 Unsupported Media
 * Type and an Error body, before it looks at the key, as a framework's body parser in front
 * of the routes does (Spring's `consumes`, FastAPI's `Body`, Express with a strict
 * content-type guard). Section 4 defines JSON payloads alone: a form post is outside the
 * interface, and 415 its honest refusal (RFC 9110 §15.5.16).
 */
export default {
  allowedBy: '4, RFC 9110 §15.5.16',
  variation: (base) => ({
    async respond(req) {
      const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
      if (req.body.byteLength > 0 && type !== 'application/json') return base.error(415, 'unsupported_media_type', `${type || 'a body without a media type'} is not accepted: send application/json`);
      return base.respond(req);
    },
  }),
} satisfies CorrectVariant;
