import type { CorrectVariant } from '../support/fault.js';

/**
 * Refuses names over 255 UTF-8 bytes with 400 and an Error body, and descriptions over
 * 4,096 bytes with 413 (columns sized in bytes, as a byte-counting database or a
 * `maxLength` checked on the encoded value): 85 Chinese characters fit, 86 do not.
 * Section 8 says length limits exist but are not shown.
 */
export default {
  allowedBy: '8',
  variation: (base) => ({
    async createCategory(req) {
      const decoded = base.decodeJson(req.body);
      const fields = decoded.ok ? base.validateNewCategory(decoded.value) : undefined;
      if (fields?.ok && fields.value.description !== undefined && Buffer.byteLength(fields.value.description) > 4096) {
        return base.error(413, 'too_large', 'description is longer than 4096 bytes');
      }
      if (fields?.ok && Buffer.byteLength(fields.value.name) > 255) return base.error(400, 'too_long', 'name is longer than 255 bytes');
      return base.createCategory(req);
    },
  }),
  observes: [/^names longer than 255 UTF-8 bytes are refused \(400\)/],
} satisfies CorrectVariant;
