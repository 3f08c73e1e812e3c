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
    failed: [
      'auth-rejects-generated-credentials',
      'create-401-basic-scheme',
      'create-401-empty-token',
      'create-401-key-case-swapped',
      'create-401-key-char-added',
      'create-401-key-char-changed',
      'create-401-key-char-removed',
      'create-401-missing',
      'create-401-no-scheme',
      'create-401-unknown-key',
    ],
  },
} satisfies Fault;
