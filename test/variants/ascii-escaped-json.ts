import type { CorrectVariant } from '../support/fault.js';

/**
 * Escapes every non-ASCII character as \uXXXX (astral ones as surrogate pairs), as
 * Python's json.dumps does by default: the same JSON text, spelled differently (RFC 8259 §7).
 */
export default {
  allowedBy: 'RFC 8259 §7',
  variation: (base) => ({
    write(res, reply) {
      if (reply.body === undefined) return base.write(res, reply);
      const text = JSON.stringify(reply.body, (_key, value) => (typeof value === 'bigint' ? `__big${value}__` : value))
        .replace(/"__big(-?\d+)__"/g, '$1')
        .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      base.write(res, { status: reply.status, headers: { ...reply.headers, 'content-type': 'application/json' }, raw: text });
    },
  }),
} satisfies CorrectVariant;
