import type { CorrectVariant } from '../support/fault.js';

/**
 * `GET /pets/{petId}` with a valid key never answers (deprecated and past its sunset, 4.3
 * and 9/R3: its backend is gone), while a request without a valid key is still refused
 * with 401 at once. The suite sends that route one valid key, for the should check of its
 * Deprecation and Sunset headers, which a hang fails; one hanging route leaves the target
 * reachable and conformant.
 */
export default {
  allowedBy: '4.3',
  variation: (base) => ({
    async respond(req) {
      if (/^\/v1\/pets\//.test(req.path) && base.authorize(req.headers.authorization)) return new Promise(() => {});
      return base.respond(req);
    },
  }),
  expectedNotPassed: ['pets-deprecation-signalled'],
} satisfies CorrectVariant;
