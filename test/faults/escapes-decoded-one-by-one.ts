import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1 with section 2: a hand-rolled JSON string decoder decodes each `\uXXXX`
 * escape on its own, so the two halves of an escaped surrogate pair each become U+FFFD.
 * An emoji is stored as U+FFFD U+FFFD when a client escapes non-ASCII text, as Python's
 * json.dumps does by default (ensure_ascii=True); raw UTF-8 is stored exactly.
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    decodeJson(body) {
      return base.decodeJson(Buffer.from(body.toString('utf8').replace(/\\u[dD][89a-fA-F][0-9a-fA-F]{2}/g, '\\ufffd')));
    },
  }),
  expected: {
    failed: ['client-forms-equivalent'],
    // Its fuzzing phase draws the form: an astral character written escaped is damaged too.
    mayFail: ['create-valid-bodies'],
  },
} satisfies Fault;
