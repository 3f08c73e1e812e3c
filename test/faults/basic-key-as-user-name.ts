import type { Fault } from '../support/fault.js';

/**
 * Breaks 5/R1: besides `Bearer <key>`, the key is taken as a Basic user name with any
 * password (`Basic base64(KEY:)`), as payment APIs take their secret keys. 5/R1 names the
 * bearer scheme alone; the raw key under Basic (`Basic KEY`) is still refused.
 */
export default {
  breaks: '5/R1',
  variation: (base, { apiKey }) => ({
    authorize(header) {
      const basic = /^basic +(\S+)$/i.exec(header ?? '');
      if (basic && Buffer.from(basic[1]!, 'base64').toString('utf8').split(':', 1)[0] === apiKey) return true;
      return base.authorize(header);
    },
  }),
  expected: {
    failed: ['auth-rejects-generated-credentials'],
    // Its sequences draw a credential from the whole grammar: the Basic form only in some runs.
    mayFail: ['model-based-sequences'],
  },
  counterexamples: {
    'auth-rejects-generated-credentials': (shown) => shown.includes('as a Basic user name (Basic base64(KEY:))'),
  },
} satisfies Fault;
