/**
 * jsonExtent (src/json/extent.ts): how deep a JSON text nests and how wide its widest
 * container is, read from its characters, each case beside its near miss.
 */
import { describe, expect, test } from 'vitest';
import { exceedsExtent, jsonExtent } from '../../src/json/extent.js';

describe('jsonExtent', () => {
  test.each([
    ['a scalar', '"x"', { depth: 0, widest: 0 }],
    ['an empty object', '{}', { depth: 1, widest: 0 }],
    ['one member', '{"a":1}', { depth: 1, widest: 1 }],
    ['near miss: two members', '{"a":1,"b":2}', { depth: 1, widest: 2 }],
    ['an array of three', '[1,true,null]', { depth: 1, widest: 3 }],
    ['nested: the outer counts its members, not the inner ones', '[[1,2,3],[4]]', { depth: 2, widest: 3 }],
    ['an object holding an array', '{"name":"x","extra":[[[]]]}', { depth: 4, widest: 2 }],
    ['brackets and commas inside strings are text', '{"a":"[[,,]]{"}', { depth: 1, widest: 1 }],
    ['an escaped quote does not end a string', '{"a":"\\"[[["}', { depth: 1, widest: 1 }],
    ['near miss: an escaped backslash does end it', '["\\\\",[1]]', { depth: 2, widest: 2 }],
    ['an empty string is a member', '[""]', { depth: 1, widest: 1 }],
    ['whitespace is no member', '[ ]', { depth: 1, widest: 0 }],
    ['unclosed text is measured as far as it goes', '[[[1,2', { depth: 3, widest: 2 }],
  ] as const)('%s', (_what, text, extent) => expect(jsonExtent(text)).toEqual(extent));

  test('stops at the first container past a bound, having seen at least that much', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(jsonExtent(deep, 32).depth).toBe(33);
    expect(jsonExtent(`[${'0,'.repeat(5_000)}0]`, Infinity, 1_000).widest).toBe(1_001);
  });

  test.each([
    ['32 levels: within', `${'['.repeat(32)}${']'.repeat(32)}`, false],
    ['near miss: 33 levels', `${'['.repeat(33)}${']'.repeat(33)}`, true],
    ['1,000 members: within', `[${Array(1_000).fill(0).join(',')}]`, false],
    ['near miss: 1,001 members', `[${Array(1_001).fill(0).join(',')}]`, true],
    ['33 brackets and 1,000 commas inside a string: counted, then walked, and within', JSON.stringify(['['.repeat(33) + ','.repeat(1_000)]), false],
  ] as const)('exceedsExtent(32 levels, 1,000 members): %s', (_what, text, exceeds) => expect(exceedsExtent(text, 32, 1_000)).toBe(exceeds));
});
