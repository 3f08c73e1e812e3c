import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1 with section 2: a hand-rolled JSON decoder knows the escapes `\"`, `\\`,
 * `\n`, `\t` and `\uXXXX` but not `\/`, and keeps it as written: "a/b" sent as PHP's
 * json_encode writes it ("a\/b") is stored with the backslash.
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    decodeJson(body) {
      // `\/` (not preceded by another backslash) is kept as a backslash and a slash.
      return base.decodeJson(Buffer.from(body.toString('utf8').replace(/(?<!\\)\\\//g, '\\\\/')));
    },
  }),
  expected: {
    failed: ['client-forms-equivalent'],
    mayFail: ['create-valid-bodies'],
  },
} satisfies Fault;
