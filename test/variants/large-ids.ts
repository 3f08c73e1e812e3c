import type { CorrectVariant } from '../support/fault.js';

/** Hands out ids from 2^62 + 1: int64, yet beyond 2^53 where doubles lose integers. */
export default {
  allowedBy: '2',
  firstId: 2n ** 62n + 1n,
  variation: () => ({}),
} satisfies CorrectVariant;
