import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { deepBodiesBeyondLimits, deepBodiesWithinLimits, nestedArrays, nestedObjects } from '../../src/arbitraries/deep-bodies.js';
import { variationOf } from '../../src/check/premises.js';
import { PARSER_DEPTH_FLOOR, PARSER_WIDTH_FLOOR } from '../../src/http/request-variations.js';
import { invalidBody } from '../../src/arbitraries/invalid-body.js';
import { CREDENTIAL_MUTATIONS, invalidCredential } from '../../src/arbitraries/invalid-credential.js';
import { CONTROL_CHARACTERS } from '../../src/arbitraries/field-text.js';
import { COLUMN_LIMITS } from '../../src/arbitraries/long-text.js';
import { newCategory, type NewCategoryValue } from '../../src/arbitraries/new-category.js';
import { sizedNewCategory } from '../../src/arbitraries/sized-new-category.js';
import { LARGEST_BODY_BYTES as MAX_BODY_BYTES } from '../../src/http/request-variations.js';
import { codePoints } from '../../src/check/length-limit.js';
import { VALUE_CLASSES } from '../../src/check/refusal.js';
import { schemaValue } from '../../src/arbitraries/schema-value.js';
import { unicodeText } from '../../src/arbitraries/unicode-text.js';
import { KEY_PLACEHOLDER, Redactor } from '../../src/secrets/redactor.js';
import { schemas, violations } from '../../src/schema/validators.js';

const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns = 400) => fc.sample(arbitrary, { seed: 99, numRuns });

describe('newCategory', () => {
  const values = sample(newCategory());

  test('every value is a valid NewCategory', () => {
    for (const value of values) expect(violations('NewCategory', value)).toEqual([]);
  });

  test('reaches lengths on every scale, with and without description', () => {
    expect(Math.max(...values.map((v) => codePoints(v.name)))).toBeGreaterThanOrEqual(4000);
    expect(values.some((v) => v.description === undefined)).toBe(true);
    expect(values.some((v) => v.description !== undefined)).toBe(true);
  });

  test('covers the regions of Unicode servers mishandle', () => {
    const all = values.map((v) => v.name + (v.description ?? '')).join('');
    for (const [what, pattern] of [
      ['astral plane', /[\u{10000}-\u{10FFFF}]/u],
      ['combining mark', /\p{M}/u],
      ['right-to-left', /[\u05d0-\u05ea\u0627-\u064a]/],
      ['quote and backslash', /["\\]/],
      ['HTML metacharacters', /[<>&]/],
      ['whitespace inside', /\S\s+\S/u],
    ] as const) {
      expect(pattern.test(all), what).toBe(true);
    }
  });

  /** The triggers that break real storage layers and serialisers (issue: verdicts on unseen servers). */
  const traps: Array<[string, (v: NewCategoryValue) => boolean]> = [
    ['whitespace at the ends', (v) => fields(v).some((text) => /^\s|\s$/u.test(text))],
    ['a line break or tab inside', (v) => fields(v).some((text) => /\S[\n\r\t]+\S/u.test(text))],
    ['NUL or another control', (v) => fields(v).some((text) => VALUE_CLASSES.nul.holds(text) || VALUE_CLASSES.control.holds(text))],
    ['a string that looks like another JSON type', (v) => fields(v).some(looksLikeJson)],
    ['an astral character in the name', (v) => /[\u{10000}-\u{10FFFF}]/u.test(v.name)],
    ['an astral character in the description', (v) => /[\u{10000}-\u{10FFFF}]/u.test(v.description ?? '')],
    ['a length at a column limit, in characters', (v) => fields(v).some((text) => nearLimit(codePoints(text)))],
    ['a length at a column limit, in UTF-8 bytes, not in characters', (v) => fields(v).some((text) => nearLimit(Buffer.byteLength(text)) && !nearLimit(codePoints(text)))],
  ];

  test.each(traps)('%s occurs in nearly every default run (30 inputs)', (_what, isTrap) => {
    // Twenty runs of create-valid-bodies' default budget, each with its own seed.
    const hits = Array.from({ length: 20 }, (_, seed) => fc.sample(newCategory(), { seed, numRuns: 30 }).some(isTrap)).filter(Boolean).length;
    expect(hits).toBeGreaterThanOrEqual(18);
  });

  test('every control character generated is in a class of its own, apart from tab and line breaks', () => {
    for (const control of CONTROL_CHARACTERS) {
      const classes = (['nul', 'control', 'del'] as const).filter((valueClass) => VALUE_CLASSES[valueClass].holds(control));
      expect(classes, JSON.stringify(control)).toHaveLength(1);
    }
    for (const separator of ['\t', '\n', '\r']) {
      expect(VALUE_CLASSES.control.holds(separator) || VALUE_CLASSES.nul.holds(separator)).toBe(false);
      expect(VALUE_CLASSES['tab-or-line-break'].holds(separator)).toBe(true);
    }
  });
});

const fields = (v: NewCategoryValue) => [v.name, ...(v.description === undefined ? [] : [v.description])];
const nearLimit = (length: number) => COLUMN_LIMITS.some((limit) => Math.abs(length - limit) <= 1);
function looksLikeJson(text: string): boolean {
  if (/^(NaN|Infinity|0x[0-9A-F]+)$/i.test(text)) return true;
  try {
    return typeof JSON.parse(text) !== 'string' || text === '""';
  } catch {
    return false;
  }
}

describe('schemaValue', () => {
  test('follows the schema: a new required property is generated', () => {
    const changed = { ...schemas.NewCategory, required: ['name', 'color'], properties: { ...(schemas.NewCategory.properties as object), color: { type: 'string' } } };
    for (const value of sample(schemaValue(changed, { text: unicodeText({ maxLength: 5 }) }), 50)) {
      expect(typeof (value as { color: unknown }).color).toBe('string');
    }
  });

  test('scalars a JSON body can carry: safe integers, finite numbers (no NaN, no infinity), booleans', () => {
    const scalars = { type: 'object', required: ['i', 'n', 'b'], properties: { i: { type: 'integer' }, n: { type: 'number' }, b: { type: 'boolean' } } };
    const values = fc.sample(schemaValue(scalars, { text: fc.string() }), { seed: 1, numRuns: 1_000 }) as Array<{ i: number; n: number; b: boolean }>;
    expect(values.every(({ i }) => Number.isSafeInteger(i))).toBe(true);
    expect(values.every(({ n }) => Number.isFinite(n))).toBe(true);
    expect(new Set(values.map(({ b }) => b))).toEqual(new Set([true, false]));
  });

  test('refuses a schema it cannot derive from, rather than generate wrong values', () => {
    expect(() => schemaValue({ type: 'object', properties: { x: { oneOf: [] } } }, { text: fc.string() })).toThrow(/unsupported/);
  });
});

describe('invalidBody', () => {
  const bodies = sample(invalidBody(schemas.NewCategory, newCategory()), 1000);

  test('every body is refused by JSON or by the NewCategory schema', () => {
    for (const { label, body } of bodies) {
      if ('json' in body) {
        expect(violations('NewCategory', body.json), label).not.toEqual([]);
      } else {
        expect(() => JSON.parse(body.text), label).toThrow();
      }
    }
  });

  test('covers every mutation the schema gives rise to', () => {
    const kinds = new Set(bodies.map(({ label }) => label.replace(/ (".*|-?[\d.e+-]+|true|false|null|\[.*|\{.*|\(.*)$/, '')));
    for (const kind of [
      'without name',
      ...['number', 'boolean', 'null', 'array', 'object'].flatMap((t) => [`name as ${t}`, `description as ${t}`]),
      'root is an array holding the body',
      'root is string',
      'root is number',
      'root is boolean',
      'root is null',
      'truncated JSON',
      'trailing comma',
      'single quotes',
      'unquoted keys',
      'name as NaN',
      'empty body',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });
});

describe('invalidCredential', () => {
  const key = 'aB3-xY9_kQ2.zz~';
  const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
  const credentials = sample(invalidCredential(key), 1000);
  // As a check registers them before sending: the arbitrary itself has no side effect.
  for (const credential of credentials) redactor.addDerived(credential.secrets ?? []);

  test('none is the valid credential, even after HTTP strips whitespace', () => {
    for (const { header } of credentials) {
      expect(header?.trim()).not.toBe(`Bearer ${key}`);
      if (header !== undefined) expect(header).toBe(header.trimStart());
    }
  });

  test('key-char-changed changes one character to another letter, digit or sign: never the same one, nor its other case (key-case-swapped is that)', () => {
    const changed = credentials.filter((c) => c.name === 'key-char-changed').map((c) => c.header!.slice('Bearer '.length));
    expect(changed.length).toBeGreaterThan(20);
    for (const token of changed) {
      const at = [...token].flatMap((c, i) => (c === key[i] ? [] : [i]));
      expect(token.length, token).toBe(key.length);
      expect(at, token).toHaveLength(1);
      expect(token[at[0]!]!.toLowerCase(), token).not.toBe(key[at[0]!]!.toLowerCase());
    }
  });

  test('covers every kind of mutation', () => {
    const kinds = new Set(credentials.map((c) => c.name));
    for (const kind of CREDENTIAL_MUTATIONS.map((mutation) => mutation.kind)) {
      expect(kinds, kind).toContain(kind);
    }
  });

  test('shows no key material, and prints as its description in counterexamples', () => {
    for (const credential of credentials) {
      expect(credential.shown ?? '').not.toContain(key.slice(0, 6));
      expect(fc.stringify(credential)).not.toContain(key.slice(0, 6));
      if (credential.header && credential.header.length > 12) expect(redactor.text(credential.header)).not.toContain(key.slice(0, 6));
    }
  });
});

describe('unicodeText: the blocks of Unicode it draws from, each from its first to its last code point, and no other', () => {
  // Each block by name, as the Unicode Standard bounds it (or the part of it drawn).
  const BLOCKS: ReadonlyArray<[string, number, number]> = [
    ['Latin-1 Supplement to Latin Extended-B', 0xa1, 0x24f],
    ['Combining Diacritical Marks', 0x300, 0x36f],
    ['Hebrew letters', 0x5d0, 0x5ea],
    ['Arabic letters', 0x627, 0x64a],
    ['CJK Unified Ideographs', 0x4e00, 0x9fff],
    ['Miscellaneous Symbols and Pictographs, Emoticons', 0x1f300, 0x1f64f],
    ['CJK Unified Ideographs Extension B', 0x20000, 0x2a6df],
  ];
  // Drawn on their own: non-ASCII spaces (U+00A0 is just before the first block), and the parts of the ZWJ sequences.
  const extras = new Set([0xa0, 0x2003, 0x3000, 0x200d, 0xfe0f, 0x2b1b, 0x1f469, 0x1f467, 0x1f3f3, 0x1f308, 0x1f408]);
  const drawn = new Set(sample(unicodeText({ minLength: 1, maxLength: 1 }), 20_000).flatMap((unit) => [...unit].map((c) => c.codePointAt(0)!)));
  test.each(BLOCKS)('%s: its first and last code points are drawn, and the ones just outside it are not', (_name, first, last) => {
    expect(drawn.has(first)).toBe(true);
    expect(drawn.has(last)).toBe(true);
    expect(drawn.has(first - 1) && !extras.has(first - 1)).toBe(false);
    expect(drawn.has(last + 1)).toBe(false);
  });
  test('nothing outside ASCII and those blocks but the spaces and the parts of the ZWJ sequences', () => {
    const outside = [...drawn].filter((cp) => cp > 0x7f && !extras.has(cp) && !BLOCKS.some(([, first, last]) => cp >= first && cp <= last));
    expect(outside.map((cp) => cp.toString(16))).toEqual([]);
  });
});

describe('sizedNewCategory', () => {
  const sizes = sample(sizedNewCategory(), 400).map((fields) => Buffer.byteLength(JSON.stringify(fields)));

  test('fields fixed by the caller (a long tag) are inside the size, never past the largest', () => {
    const tagged = sample(sizedNewCategory({ description: 't'.repeat(5_000) }), 200);
    expect(tagged.every((fields) => fields.description === 't'.repeat(5_000))).toBe(true);
    expect(Math.max(...tagged.map((fields) => Buffer.byteLength(JSON.stringify(fields))))).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });

  test('bodies of every scale, from a few bytes up to 1 MiB as compact JSON, never past it (the premise of the 401 rules)', () => {
    expect(Math.min(...sizes)).toBeLessThan(64);
    expect(Math.max(...sizes)).toBeGreaterThan(MAX_BODY_BYTES / 2);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });

  test('about half past 64 KiB, where proxies and frameworks put body limits', () => {
    const large = sizes.filter((size) => size > 64 * 1024).length / sizes.length;
    expect(large).toBeGreaterThan(0.35);
    expect(large).toBeLessThan(0.65);
  });
});

describe('deepBodiesWithinLimits and deepBodiesBeyondLimits', () => {
  const within = deepBodiesWithinLimits((label) => `pcs-test ${label}`);
  const beyond = deepBodiesBeyondLimits((label) => `pcs-test ${label}`);
  const depthOf = (text: string) => {
    let depth = 0;
    let deepest = 0;
    for (const c of text.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
      if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
      if (c === ']' || c === '}') depth--;
    }
    return deepest;
  };
  const requestOf = (text: string) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: text, url: 'http://127.0.0.1:9/v1/categories' });

  test('each is a valid NewCategory as JSON text (unknown members allowed), named for what it holds', () => {
    for (const { value } of [...within, ...beyond]) {
      const parsed = JSON.parse(value.text) as { name: string; extra: unknown };
      expect(violations('NewCategory', parsed)).toEqual([]);
      expect(parsed.name).toBe(value.fields.name);
    }
    expect(within.map(({ label }) => label)).toEqual([
      'an extra member nested 31 levels deep as arrays (the body 32)',
      'an extra member nested 31 levels deep as objects (the body 32)',
      'an extra member that is an object of 1,000 members',
    ]);
    expect(beyond.map(({ label }) => label)).toEqual([
      'an extra member nested 1,000 levels deep as arrays',
      'an extra member nested 1,000 levels deep as objects',
      'an extra member nested 100,000 levels deep as arrays',
      'an extra member that is an object of 10,000 members',
      `an extra member that is a string filling the body to ${MAX_BODY_BYTES} bytes`,
    ]);
  });

  test('depths, width and size as their labels say: the body itself one level more than its member', () => {
    expect(within.slice(0, 2).map(({ value }) => depthOf(value.text))).toEqual([PARSER_DEPTH_FLOOR, PARSER_DEPTH_FLOOR]);
    expect(Object.keys((JSON.parse(within[2]!.value.text) as { extra: object }).extra)).toHaveLength(PARSER_WIDTH_FLOOR);
    expect(beyond.slice(0, 3).map(({ value }) => depthOf(value.text))).toEqual([1_001, 1_001, 100_001]);
    expect(Object.keys((JSON.parse(beyond[3]!.value.text) as { extra: object }).extra)).toHaveLength(10_000);
    // The largest body the suite sends, to the byte: a byte more would be outside the interface.
    expect(Buffer.byteLength(beyond[4]!.value.text)).toBe(MAX_BODY_BYTES);
  });

  test('the within set is the interface’s own request; each past the floor is beyond-parser-limits, but the string (a size the interface sends)', () => {
    for (const { value } of within) expect(variationOf(requestOf(value.text))).toBeUndefined();
    expect(beyond.map(({ value }) => variationOf(requestOf(value.text))?.id)).toEqual(['beyond-parser-limits', 'beyond-parser-limits', 'beyond-parser-limits', 'beyond-parser-limits', undefined]);
  });

  test('near misses at the floor: one level, one member past it is beyond; at it, not', () => {
    const withExtra = (extra: string) => `{"name":"x","extra":${extra}}`;
    const members = (count: number) => `[${Array.from({ length: count }, () => '0').join(',')}]`;
    expect(variationOf(requestOf(withExtra(nestedArrays(PARSER_DEPTH_FLOOR - 1))))).toBeUndefined();
    expect(variationOf(requestOf(withExtra(nestedArrays(PARSER_DEPTH_FLOOR))))?.id).toBe('beyond-parser-limits');
    expect(variationOf(requestOf(withExtra(nestedObjects(PARSER_DEPTH_FLOOR - 1))))).toBeUndefined();
    expect(variationOf(requestOf(withExtra(nestedObjects(PARSER_DEPTH_FLOOR))))?.id).toBe('beyond-parser-limits');
    expect(variationOf(requestOf(withExtra(members(PARSER_WIDTH_FLOOR))))).toBeUndefined();
    expect(variationOf(requestOf(withExtra(members(PARSER_WIDTH_FLOOR + 1))))?.id).toBe('beyond-parser-limits');
    // Brackets inside strings are text, not nesting.
    expect(variationOf(requestOf(`{"name":${JSON.stringify('['.repeat(100))}}`))).toBeUndefined();
  });
});
