/**
 * How far a JSON text nests and spreads, read from its characters without parsing it: a
 * capture's body may be 16 MiB, and a body nested 100,000 levels deep overflows a
 * recursive walk. Strings are skipped (their brackets are text); malformed text is
 * measured as far as it goes, which is all a premise needs (check/premises.ts).
 */

/** A JSON text's extent: its deepest nesting (`{"a":[1]}` is 2) and its widest object or array (members). */
export interface JsonExtent {
  depth: number;
  widest: number;
}

/**
 * Whether a JSON text nests deeper than `depth` levels or holds an object or array of more
 * than `width` members; stops at the first sign of either.
 */
export function exceedsExtent(text: string, depth: number, width: number): boolean {
  // Most texts hold too few brackets and commas to be past either bound, counted natively:
  // a 1 MiB string member then costs no walk of its characters.
  if (countBelow(text, ['[', '{'], depth + 1) && countBelow(text, [','], width)) return false;
  const extent = jsonExtent(text, depth, width);
  return extent.depth > depth || extent.widest > width;
}

/** Whether the characters `of` occur fewer than `bound` times in `text` (strings included: an upper bound). */
function countBelow(text: string, of: readonly string[], bound: number): boolean {
  let count = 0;
  for (const c of of) {
    for (let at = text.indexOf(c); at >= 0; at = text.indexOf(c, at + 1)) if (++count >= bound) return false;
  }
  return true;
}

/**
 * A JSON text's extent, measured up to the first container past `stopDepth` levels or
 * `stopWidth` members (then at least that), or whole.
 */
export function jsonExtent(text: string, stopDepth = Infinity, stopWidth = Infinity): JsonExtent {
  /** Members seen in each open container, innermost last; -1 for one still empty. */
  const members: number[] = [];
  let depth = 0;
  let widest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escapes.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
      if (members.length > 0 && members[members.length - 1] === 0) members[members.length - 1] = 1;
    } else if (c === 0x5b || c === 0x7b) {
      if (members.length > 0 && members[members.length - 1] === 0) members[members.length - 1] = 1;
      members.push(0);
      depth = Math.max(depth, members.length);
      if (depth > stopDepth) break;
    } else if (c === 0x5d || c === 0x7d) {
      widest = Math.max(widest, members.pop() ?? 0);
    } else if (c === 0x2c && members.length > 0) {
      const count = ++members[members.length - 1]!;
      widest = Math.max(widest, count);
      if (widest > stopWidth) break;
    } else if (c > 0x20 && members.length > 0 && members[members.length - 1] === 0) {
      members[members.length - 1] = 1; // a number or literal: the first member
    }
  }
  return { depth, widest };
}
