import type { Fault } from '../support/fault.js';

/** Frames a recursive walk of the body may take: Python's default recursion limit is 1,000. */
const RECURSION_LIMIT = 990;

/**
 * Breaks 4 and 4.2/R1: the body is walked recursively after parsing (a validator that
 * descends into every member, as Python's json and many hand-written validators do), and
 * a valid body whose extra member nests past the recursion limit crashes the handler: the
 * framework's error handler answers 500 with an Error body. A valid NewCategory's unknown
 * members are not forbidden (section 2): it is created, or refused with 400 or 413.
 */
export default {
  breaks: '4',
  variation: (base) => ({
    decodeJson(body) {
      const decoded = base.decodeJson(body);
      if (decoded.ok && depthOf(decoded.value) > RECURSION_LIMIT) throw new RangeError('maximum recursion depth exceeded while decoding a JSON object');
      return decoded;
    },
  }),
  expected: {
    failed: ['create-deep-bodies', 'no-server-error'],
  },
} satisfies Fault;

/** How deeply arrays and objects nest in a value (counted with a stack: the fault is in the server, not here). */
function depthOf(value: unknown): number {
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
