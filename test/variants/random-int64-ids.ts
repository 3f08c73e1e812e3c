import { randomBytes } from 'node:crypto';
import type { CorrectVariant } from '../support/fault.js';

/** Assigns random 63-bit ids (snowflake style), not a sequence: section 2 asks only for unique int64. */
export default {
  allowedBy: '2',
  variation: (base) => {
    const assigned = new Map<bigint, bigint>();
    const idFor = (storeId: bigint) => {
      let id = assigned.get(storeId);
      if (id === undefined) {
        id = randomBytes(8).readBigUInt64BE() >> 1n; // non-negative int64
        assigned.set(storeId, id);
      }
      return id;
    };
    return { represent: (category) => ({ ...base.represent(category), id: idFor(category.id) }) };
  },
} satisfies CorrectVariant;
