import { stringify } from 'lossless-json';
import type { CorrectVariant } from '../support/fault.js';

/** Streams bodies in chunks without Content-Length, as streaming frameworks do (RFC 9112 §7.1). */
export default {
  allowedBy: 'RFC 9112 §7.1',
  variation: (base) => ({
    write(res, reply) {
      if (reply.body === undefined) return base.write(res, reply);
      // 7-byte chunks: multi-byte UTF-8 sequences are split across chunks too.
      const bytes = Buffer.from(stringify(reply.body) ?? 'null');
      res.writeHead(reply.status, { ...reply.headers, 'content-type': 'application/json' });
      for (let i = 0; i < bytes.length; i += 7) res.write(bytes.subarray(i, i + 7));
      res.end();
    },
  }),
} satisfies CorrectVariant;
