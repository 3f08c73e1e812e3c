import type { Fault } from '../support/fault.js';

/** Breaks 5/R2: only the first 16 characters of the token are compared with the key. */
export default {
  breaks: '5/R2',
  variation: (_base, { apiKey }) => ({
    authorize: (header) => /^bearer +(\S+)$/i.exec(header ?? '')?.[1]?.slice(0, 16) === apiKey.slice(0, 16),
  }),
  expected: {
    failed: ['key-char-added', 'key-char-removed', 'key-char-changed'].flatMap((v) => [`create-401-${v}`, `list-401-${v}`]),
  },
} satisfies Fault;
