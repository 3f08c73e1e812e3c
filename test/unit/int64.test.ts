import { describe, expect, test } from 'vitest';
import { INT64_MAX, INT64_MIN, integerFromLexeme, isInt64 } from '../../src/json/int64.js';
import { collectGarbage } from '../../src/core/collect-garbage.js';
import { exactInteger, jsonText, lexemeOf, parseJson, RECURSIVE_DEPTH } from '../../src/json/lossless.js';

describe('integerFromLexeme', () => {
  test.each([
    ['0', 0n],
    ['-0', 0n],
    ['42', 42n],
    ['-17', -17n],
    ['9007199254740993', 9007199254740993n], // 2^53 + 1: a double cannot hold it
    ['4611686018427387905', 4611686018427387905n],
    ['9223372036854775807', INT64_MAX],
    ['-9223372036854775808', INT64_MIN],
    ['9223372036854775808', INT64_MAX + 1n],
    ['1.0', 1n],
    ['1e3', 1000n],
    ['1.5e1', 15n],
    ['12300e-2', 123n],
    ['0.0', 0n],
  ])('%s is the integer %s', (lexeme, expected) => {
    expect(integerFromLexeme(lexeme)).toBe(expected);
  });

  test.each(['1.5', '1e-1', '0.001', '"1"', 'abc', '', '01', '1.', '+1'])('%s is not an integer lexeme', (lexeme) => {
    expect(integerFromLexeme(lexeme)).toBeUndefined();
  });

  test('a huge exponent is outside int64 without building a huge number', () => {
    const value = integerFromLexeme('1e999999999');
    expect(value).toBeDefined();
    expect(isInt64(value!)).toBe(false);
  });
});

describe('isInt64', () => {
  test('accepts the bounds and refuses one beyond each', () => {
    expect(isInt64(INT64_MAX)).toBe(true);
    expect(isInt64(INT64_MIN)).toBe(true);
    expect(isInt64(INT64_MAX + 1n)).toBe(false);
    expect(isInt64(INT64_MIN - 1n)).toBe(false);
  });
});

describe('parseJson', () => {
  test('the judgements of one body parse it once; the parse is let go at the next collection', async () => {
    const text = `[${'{"id":1},'.repeat(1_000)}{"id":2}]`;
    // Held only weakly here: what parseJson itself keeps is what the collection leaves.
    const parsed = async () => {
      const first = parseJson(text);
      // Read again in the same task: the same result, not a second parse.
      const again = parseJson(`${text}`) === first;
      // Near miss: read in a later task, before any collection, it is not parsed again either.
      await new Promise((resolve) => setImmediate(resolve));
      return { again, later: parseJson(text) === first, kept: new WeakRef(first) };
    };
    const { again, later, kept } = await parsed();
    expect([again, later]).toEqual([true, true]);
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(kept.deref()).toBeUndefined();
  });

  test('keeps ids above 2^53 distinct where JSON.parse merges them', () => {
    const text = '[{"id":9007199254740992},{"id":9007199254740993}]';
    const plain = JSON.parse(text) as Array<{ id: number }>;
    expect(plain[0]!.id).toBe(plain[1]!.id); // the loss this module exists to avoid
    const parsed = parseJson(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const [a, b] = parsed.json.tree as Array<{ id: unknown }>;
    expect(exactInteger(a!.id)).toBe(9007199254740992n);
    expect(exactInteger(b!.id)).toBe(9007199254740993n);
  });

  test('2^63 equals int64 max as a double, but is out of range exactly', () => {
    expect(Number('9223372036854775808')).toBe(Number('9223372036854775807'));
    const parsed = parseJson('{"id":9223372036854775808}');
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(isInt64(exactInteger((parsed.json.tree as { id: unknown }).id)!)).toBe(false);
  });

  test.each([
    ['{"id": 5, "name": "pcs-3e5 v1.5"}', 'number', 5n], // number-like text inside strings stays on the fast path
    ['[{"id": -12, "s": "a\\"1e5"}]', 'number', -12n], // an escaped quote does not end the string
    ['{"id": 9007199254740993}', 'lossless', 9007199254740993n], // 16 digits: exact lexeme
    ['{"id": 1.0}', 'lossless', 1n],
    ['{"id": 1e3}', 'lossless', 1000n],
    ['{"id": 123456789012345}', 'number', 123456789012345n], // 15 digits always fit a double
  ])('%s is parsed exactly (%s path)', (text, path, id) => {
    const parsed = parseJson(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    const tree = parsed.json.tree as { id: unknown } | Array<{ id: unknown }>;
    const node = Array.isArray(tree) ? tree[0]!.id : tree.id;
    expect(typeof node === 'number' ? 'number' : 'lossless').toBe(path);
    expect(exactInteger(node)).toBe(id);
  });

  test('gives a plain view for schema validation', () => {
    const parsed = parseJson('{"id": 1, "name": "x", "nested": [1.5, {"a": null}]}');
    expect(parsed.ok && parsed.json.value).toEqual({ id: 1, name: 'x', nested: [1.5, { a: null }] });
  });

  test('keeps a "__proto__" key as data', () => {
    const parsed = parseJson('{"__proto__": {"polluted": true}, "name": "x"}');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(Object.getPrototypeOf(parsed.json.value)).toBe(Object.prototype);
    expect(Object.keys(parsed.json.value as object)).toContain('__proto__');
  });

  test.each([
    ['', 'empty'],
    ['{"name": "x"', 'truncated'],
    ["{'name': 'x'}", 'single quotes'],
    ['<html>500</html>', 'HTML'],
  ])('refuses %j (%s) with a reason', (text) => {
    const parsed = parseJson(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(0);
  });

  test('exactInteger is undefined for non-numbers and fractions', () => {
    const parsed = parseJson('{"s": "1", "f": 1.5, "n": null}');
    if (!parsed.ok) throw new Error(parsed.reason);
    const tree = parsed.json.tree as Record<string, unknown>;
    expect(exactInteger(tree.s)).toBeUndefined();
    expect(exactInteger(tree.f)).toBeUndefined();
    expect(exactInteger(tree.n)).toBeUndefined();
  });
});

describe('hostile numbers and nesting', () => {
  test('a million-digit integer is decided without converting it: outside int64, and shown shortened', () => {
    const digits = '9'.repeat(1_000_000);
    const parsed = parseJson(`{"id":${digits},"name":"x"}`);
    expect(parsed.ok).toBe(true);
    const id = exactInteger((parsed as { json: { tree: { id: unknown } } }).json.tree.id)!;
    expect(isInt64(id)).toBe(false);
    expect(lexemeOf((parsed as { json: { tree: { id: unknown } } }).json.tree.id)).toMatch(/^9{20}…\(1000000 digits\)$/);
  });

  test('integers up to a thousand digits stay exact, so long ids still compare', () => {
    const a = integerFromLexeme('1'.repeat(999) + '1')!;
    const b = integerFromLexeme('1'.repeat(999) + '2')!;
    expect(a === b).toBe(false);
    expect(a).toBe(BigInt('1'.repeat(1000)));
  });

  test('near miss: past a thousand digits an integer is 10^1000 with its sign, so two that differ only in the 1001st compare equal', () => {
    expect(integerFromLexeme('1'.repeat(1001))).toBe(10n ** 1000n);
    expect(integerFromLexeme(`-${'1'.repeat(1000)}2`)).toBe(-(10n ** 1000n));
    expect(integerFromLexeme('1'.repeat(1000) + '1')).toBe(integerFromLexeme('1'.repeat(1000) + '2'));
  });

  test('JSON nested 100,000 levels deep parses, as arrays and as objects, with exact numbers inside (no recursion limit)', () => {
    const n = 100_000;
    const arrays = parseJson(`{"id":1,"extra":${'['.repeat(n)}${']'.repeat(n)}}`);
    expect(arrays.ok).toBe(true);
    const objects = parseJson(`{"id":12345678901234567890,"extra":${'{"a":'.repeat(n)}1.5${'}'.repeat(n)}}`);
    if (!objects.ok) throw new Error(objects.reason);
    expect(exactInteger((objects.json.tree as { id: unknown }).id)).toBe(12345678901234567890n);
    let node = (objects.json.tree as { extra: unknown }).extra;
    for (let i = 0; i < n; i++) node = (node as { a: unknown }).a;
    expect(lexemeOf(node)).toBe('1.5');
    // Brackets inside strings are text, not nesting.
    expect(parseJson(JSON.stringify({ name: '['.repeat(100_000) })).ok).toBe(true);
  });

  test.each([
    ['at the recursive parse’s depth', RECURSIVE_DEPTH],
    ['one level past it, built with a stack of our own', RECURSIVE_DEPTH + 1],
  ])('an inexact document nested %s reads the same tree', (_what, depth) => {
    const text = `{"id":9007199254740993,"__proto__":[true,false,null,"x\\u0041"],"n":-1.5e3,"deep":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    const parsed = parseJson(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    const tree = parsed.json.tree as Record<string, unknown>;
    expect(exactInteger(tree.id)).toBe(9007199254740993n);
    expect(Object.keys(tree)).toEqual(['id', '__proto__', 'n', 'deep']);
    expect(tree.__proto__).toEqual([true, false, null, 'xA']);
    expect(lexemeOf(tree.n)).toBe('-1.5e3');
  });

  test.each([
    ['shallow', 1],
    ['deep', RECURSIVE_DEPTH + 1],
  ])('a member given twice with different values is refused, %s; with the same value kept', (_what, depth) => {
    const nest = (inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
    expect(parseJson(nest('{"a":1.5,"a":2.5}')).ok).toBe(false);
    expect(parseJson(nest('{"a":1.5,"a":1.5}')).ok).toBe(true);
  });

  test('a value nested too deep for JSON.stringify is shown in words, not thrown', () => {
    const parsed = parseJson(`[${'['.repeat(100_000)}${']'.repeat(100_000)}]`);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(jsonText(parsed.json.value)).toBe('[an array nested too deep to show]');
    expect(lexemeOf((parsed.json.tree as unknown[])[0])).toBe('[an array nested too deep to show]');
    expect(jsonText({ a: [1] })).toBe('{"a":[1]}');
  });
});

describe('how much of a value a finding shows', () => {
  const lexeme = (digits: number) => lexemeOf((parseJson(`[${'7'.repeat(digits)}]`) as { json: { tree: unknown[] } }).json.tree[0]);
  test('a number of 60 digits is shown whole; of 61, its first 20 and its length', () => {
    expect(lexeme(60)).toBe('7'.repeat(60));
    expect(lexeme(61)).toBe(`${'7'.repeat(20)}…(61 digits)`);
  });
  test('lexemeAt: a text of 80 characters is shown whole; of 81, its first 80 and …', async () => {
    const { lexemeAt } = await import('../../src/json/lossless.js');
    expect(lexemeAt(JSON.stringify({ name: 'n'.repeat(78) }), '/name')).toBe(`"${'n'.repeat(78)}"`);
    expect(lexemeAt(JSON.stringify({ name: 'n'.repeat(79) }), '/name')).toBe(`"${'n'.repeat(79)}…`);
    expect(lexemeAt(JSON.stringify({ name: 'n' }), '')).toBeUndefined();
    expect(lexemeAt(JSON.stringify({ name: 'n' }), '/other')).toBeUndefined();
  });
});
