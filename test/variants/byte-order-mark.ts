import type { CorrectVariant } from '../support/fault.js';

/**
 * Starts every JSON body with a UTF-8 byte order mark (EF BB BF), as .NET's UTF8Encoding
 * with its preamble and some Windows tools write: RFC 8259 §8.1 forbids adding one (a
 * should finding), and allows a parser to ignore it, so the value after it is judged as
 * usual and the run is conformant.
 */
export default {
  allowedBy: 'RFC 8259 §8.1 (a should rule)',
  variation: (base) => ({
    write(res, reply) {
      if (reply.body === undefined) return base.write(res, reply);
      const text = JSON.stringify(reply.body, (_key, value) => (typeof value === 'bigint' ? Number(value) : value));
      base.write(res, { status: reply.status, headers: { ...reply.headers, 'content-type': 'application/json' }, raw: `\ufeff${text}` });
    },
  }),
  expectedNotPassed: ['json-without-byte-order-mark'],
} satisfies CorrectVariant;
