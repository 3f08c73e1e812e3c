import type { Fault } from '../support/fault.js';

/** Breaks 4.2/R3: the body is validated before the key, so a bad body with a bad key answers 400. */
export default {
  breaks: '4.2/R3',
  variation: (base) => ({
    async respond(req) {
      if (req.method === 'POST' && req.path === '/v1/categories') {
        const decoded = base.decodeJson(req.body);
        if (!decoded.ok) return base.error(400, 'invalid_json', decoded.message);
        const fields = base.validateNewCategory(decoded.value);
        if (!fields.ok) return base.error(400, 'invalid_body', fields.message);
      }
      return base.respond(req);
    },
  }),
  expected: {
    failed: ['missing', 'unknown-key', 'empty-token', 'basic-scheme', 'no-scheme', 'key-char-added', 'key-char-removed', 'key-char-changed', 'key-case-swapped'].map(
      (v) => `create-401-${v}`,
    ),
  },
} satisfies Fault;
