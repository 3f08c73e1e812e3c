import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { invalidBody } from '../../src/arbitraries/invalid-body.js';
import { invalidCredential } from '../../src/arbitraries/invalid-credential.js';
import { newCategory } from '../../src/arbitraries/new-category.js';
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

  test('reaches long names, with and without description', () => {
    expect(Math.max(...values.map((v) => [...v.name].length))).toBeGreaterThanOrEqual(180);
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
    expect(values.every((v) => v.name.trim() === v.name)).toBe(true);
    expect(/\p{Cc}/u.test(all)).toBe(false); // control characters are edge cases, not valid input
  });
});

describe('schemaValue', () => {
  test('follows the schema: a new required property is generated', () => {
    const changed = { ...schemas.NewCategory, required: ['name', 'color'], properties: { ...(schemas.NewCategory.properties as object), color: { type: 'string' } } };
    for (const value of sample(schemaValue(changed, { text: unicodeText({ maxLength: 5 }) }), 50)) {
      expect(typeof (value as { color: unknown }).color).toBe('string');
    }
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
  const credentials = sample(invalidCredential(key, redactor), 1000);

  test('none is the valid credential, even after HTTP strips whitespace', () => {
    for (const { header } of credentials) {
      expect(header?.trim()).not.toBe(`Bearer ${key}`);
      if (header !== undefined) expect(header).toBe(header.trimStart());
    }
  });

  test('covers every kind of mutation', () => {
    const kinds = new Set(credentials.map((c) => c.name));
    for (const kind of ['char-added', 'char-removed', 'char-changed', 'case-changed', 'prefix', 'suffix', 'other-scheme', 'no-scheme', 'empty-token', 'missing']) {
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
