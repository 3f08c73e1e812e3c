import type { Fault } from '../support/fault.js';

/** The depth a hand-written validator guards against, below every mainstream parser's default limit. */
const GUARD_DEPTH = 20;

/**
 * Breaks 4 and 4.2/R1: the body is walked by a hand-written recursive validator whose depth
 * guard throws a plain error rather than refusing the body, so a valid body nested past 20
 * levels (well within every parser's default limit: 32 levels are, and nothing in the spec
 * forbids unknown members) crashes the handler, and the framework answers 500. A valid
 * NewCategory is created, or refused with 400 or 413.
 */
export default {
  breaks: '4',
  variation: (base) => ({
    decodeJson(body) {
      const decoded = base.decodeJson(body);
      if (decoded.ok && depthOf(decoded.value) > GUARD_DEPTH) throw new RangeError(`validator: nesting deeper than ${GUARD_DEPTH}`);
      return decoded;
    },
  }),
  expected: {
    failed: ['create-deep-bodies', 'no-server-error', 'create-bodies-beyond-parser-limits'],
  },
} satisfies Fault;

/** How deeply arrays and objects nest in a value (counted with a stack: the fault is in the server, not here). */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}
