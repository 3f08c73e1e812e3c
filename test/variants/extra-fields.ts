import type { CorrectVariant } from '../support/fault.js';

/** Adds fields to Category and Error: section 2 lists required fields and forbids no others. */
export default {
  allowedBy: '2',
  variation: (base) => ({
    represent: (category) => ({ ...base.represent(category), createdAt: '2026-01-01T00:00:00Z', links: { self: `/categories/${category.id}` } }),
    error: (status, code, message) => {
      const reply = base.error(status, code, message);
      return { ...reply, body: { ...(reply.body as object), requestId: 'req-42', details: [] } };
    },
  }),
} satisfies CorrectVariant;
