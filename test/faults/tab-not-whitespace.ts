import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1: a hand-written JSON tokenizer skips spaces and line breaks between tokens
 * but not tabs, which RFC 8259 §2 lists as whitespace too: a body with a tab between its
 * tokens is refused as malformed (400). JSON strings hold no raw tab, so any tab in the
 * text is such whitespace.
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    decodeJson(body) {
      const text = body.toString('utf8');
      const tab = text.indexOf('\t');
      return tab >= 0 ? { ok: false, message: `unexpected character '\\t' at position ${tab}` } : base.decodeJson(body);
    },
  }),
  expected: {
    failed: ['client-forms-equivalent'],
    mayFail: ['create-valid-bodies'],
  },
} satisfies Fault;
