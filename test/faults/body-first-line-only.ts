import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1: the handler reads the request body with Java's `BufferedReader.readLine()`,
 * once: only its first line. A compact body is one line and is created; a pretty-printed
 * one (as .NET's indented writer, or `jq .`, writes it) is refused as malformed JSON.
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    decodeJson(body) {
      return base.decodeJson(Buffer.from(body.toString('utf8').split(/\r?\n/, 1)[0]!));
    },
  }),
  expected: {
    failed: ['client-forms-equivalent'],
    mayFail: ['create-valid-bodies'],
  },
} satisfies Fault;
