import type { CorrectVariant } from '../support/fault.js';

/** Starts with categories of its own (as any deployed service does), some with descriptions. */
export default {
  allowedBy: '4.1/R1',
  variation: (_base, { store }) => {
    store.create({ name: 'dog' });
    store.create({ name: 'cat', description: 'Felines' });
    store.create({ name: 'rabbit', description: 'Lagomorphs 🐇' });
    return {};
  },
} satisfies CorrectVariant;
