import { stringify } from 'lossless-json';
import type { CorrectVariant } from '../support/fault.js';

/** Pretty-prints every body with two-space indentation: insignificant whitespace (RFC 8259 §2). */
export default {
  allowedBy: 'RFC 8259 §2',
  variation: (base) => ({
    write(res, reply) {
      if (reply.body === undefined) return base.write(res, reply);
      base.write(res, { status: reply.status, headers: { ...reply.headers, 'content-type': 'application/json' }, raw: `${stringify(reply.body, null, 2)}\n` });
    },
  }),
} satisfies CorrectVariant;
