import type { Fault } from '../support/fault.js';

/** Breaks 4.2 (400 row): a JSON5-like parser accepts single quotes, unquoted keys and trailing commas. */
export default {
  breaks: '4.2',
  variation: (base) => ({
    decodeJson(body) {
      const strict = base.decodeJson(body);
      if (strict.ok) return strict;
      const relaxed = body
        .toString('utf8')
        .replace(/'/g, '"')
        .replace(/([{,]\s*)([A-Za-z_]\w*)\s*:/g, '$1"$2":')
        .replace(/,\s*}/g, '}');
      return base.decodeJson(Buffer.from(relaxed));
    },
  }),
  expected: {
    failed: ['create-rejects-invalid-bodies', 'create-rejects-malformed-json', 'model-based-sequences'],
  },
} satisfies Fault;
