import { setTimeout as sleep } from 'node:timers/promises';
import type { CorrectVariant } from '../support/fault.js';

/** Answers after 5 ms: section 8 sets no timing. */
export default {
  allowedBy: '8',
  variation: (base) => ({
    async respond(req) {
      await sleep(5);
      return base.respond(req);
    },
  }),
} satisfies CorrectVariant;
