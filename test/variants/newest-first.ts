import type { CorrectVariant } from '../support/fault.js';

/** Lists newest first: 4.1/R2 leaves ordering undefined. */
export default {
  allowedBy: '4.1/R2',
  variation: (base) => ({
    async listCategories(req) {
      const reply = await base.listCategories(req);
      return { ...reply, body: [...(reply.body as unknown[])].reverse() };
    },
  }),
} satisfies CorrectVariant;
