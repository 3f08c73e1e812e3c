import type { Fault } from '../support/fault.js';

/** Breaks 5/R2: the token is accepted when it merely starts with the key (startsWith instead of equality). */
export default {
  breaks: '5/R2',
  variation: (_base, { apiKey }) => ({ authorize: (header) => /^bearer +(\S+)$/i.exec(header ?? '')?.[1]?.startsWith(apiKey) ?? false }),
  expected: {
    failed: [
      'auth-rejects-generated-credentials',
      'create-401-key-char-added',
      'list-401-key-char-added',
      'model-based-sequences',
    ],
  },
} satisfies Fault;
