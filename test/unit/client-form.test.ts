/**
 * Client forms (src/http/client-form.ts, src/arbitraries/client-form.ts): every dialect
 * writes the same JSON value, every form is named by what differs, and the arbitrary
 * reaches every form.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { clientForm, everyClientForm } from '../../src/arbitraries/client-form.js';
import { newCategory } from '../../src/arbitraries/new-category.js';
import { ACCEPT_VALUES, BASELINE_FORM, CHUNKED_FORM, CONTENT_TYPES, describeForm, isBaselineForm, JSON_DIALECTS, writeJson, type ClientForm, type JsonDialect } from '../../src/http/client-form.js';

const DIALECTS = Object.keys(JSON_DIALECTS) as JsonDialect[];

describe('writeJson', () => {
  test.each(DIALECTS)('%s parses back to the value written, for any JSON value and any NewCategory', (dialect) => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), newCategory()), (value) => {
      expect(JSON.parse(writeJson(value, dialect))).toEqual(JSON.parse(JSON.stringify(value)));
    }), { seed: 7, numRuns: 300 });
  });

  const value = { name: 'Café 🐈 a/b', description: 'line\none' };
  test.each([
    ['compact is JSON.stringify', 'compact', '{"name":"Café 🐈 a/b","description":"line\\none"}'],
    ['escaped-non-ascii writes surrogate pairs, as Python does', 'escaped-non-ascii', '{"name":"Caf\\u00e9 \\ud83d\\udc08 a/b","description":"line\\none"}'],
    ['escaped-slash escapes "/" only', 'escaped-slash', '{"name":"Café 🐈 a\\/b","description":"line\\none"}'],
    ['pretty-crlf indents with CRLF, the escaped line feed untouched', 'pretty-crlf', '{\r\n  "name": "Café 🐈 a/b",\r\n  "description": "line\\none"\r\n}'],
    ['keys-reversed puts description first', 'keys-reversed', '{"description":"line\\none","name":"Café 🐈 a/b"}'],
  ] as const)('%s', (_d, dialect, text) => expect(writeJson(value, dialect)).toBe(text));

  test('spaced puts RFC 8259 whitespace around every structural character, never inside a string', () => {
    const text = writeJson({ name: 'a, b: {c}', list: [1, 2] }, 'spaced');
    expect(text).toMatch(/^\s+\{\s+"name"\s+:\s+"a, b: \{c\}"\s+,\s+"list"\s+:\s+\[\s+1\s+,\s+2\s+\]\s+\}\s+$/);
    expect(text.replace(/"[^"]*"/g, '').replace(/[^ \t\r\n]/g, '')).toMatch(/\t/);
    expect(text).not.toMatch(/[^ \t\r\n\S]/);
  });

  test('escaped-non-ascii leaves no byte above 0x7F', () => {
    fc.assert(fc.property(newCategory(), (category) => {
      expect(writeJson(category, 'escaped-non-ascii')).toMatch(/^[\x00-\x7f]*$/);
    }), { seed: 7, numRuns: 200 });
  });
});

describe('forms', () => {
  test('the suite own form is named as such; every other names only what differs', () => {
    expect(isBaselineForm(BASELINE_FORM)).toBe(true);
    expect(describeForm(BASELINE_FORM)).toBe('written as the suite writes it (compact UTF-8 JSON, Accept: application/json)');
    expect(describeForm({ ...BASELINE_FORM, accept: null })).toBe('without an Accept header');
    expect(describeForm({ ...BASELINE_FORM, accept: '*/*', framing: 'chunked' })).toMatch(/^Accept: \*\/\* \(as curl and Python requests send it\), framed with Transfer-Encoding: chunked/);
  });

  test('everyClientForm: the suite own form, then each form of the same request that differs in exactly one dimension, each named apart', () => {
    const [first, ...others] = everyClientForm();
    expect(isBaselineForm(first!)).toBe(true);
    const dimensions = (form: typeof BASELINE_FORM) => (Object.keys(BASELINE_FORM) as Array<keyof typeof BASELINE_FORM>).filter((key) => form[key] !== BASELINE_FORM[key]);
    for (const form of others) expect(dimensions(form), describeForm(form)).toHaveLength(1);
    expect(others).toHaveLength(DIALECTS.length - 1 + ACCEPT_VALUES.length - 1 + CONTENT_TYPES.length - 1);
    expect(new Set(others.map(describeForm)).size).toBe(others.length);
  });

  test('no must form draws a transport feature: every form of the coverage and of the arbitrary is framed by Content-Length', () => {
    const drawn = fc.sample(clientForm(), { seed: 3, numRuns: 300 });
    expect(new Set([...everyClientForm(), ...drawn].map((form) => form.framing))).toEqual(new Set(['content-length']));
    expect(CHUNKED_FORM).toEqual({ ...BASELINE_FORM, framing: 'chunked' });
  });

  test.each<[string, ClientForm, boolean]>([
    ['the suite own form', BASELINE_FORM, true],
    ['another dialect', { ...BASELINE_FORM, json: 'spaced' }, false],
    ['another Accept', { ...BASELINE_FORM, accept: '*/*' }, false],
    ['no Accept', { ...BASELINE_FORM, accept: null }, false],
    ['another Content-Type', { ...BASELINE_FORM, contentType: 'application/json; charset=utf-8' }, false],
    ['chunked framing alone', CHUNKED_FORM, false],
  ])('isBaselineForm: %s', (_d, form, baseline) => expect(isBaselineForm(form)).toBe(baseline));

  test('the arbitrary reaches every value of every dimension of the same request, and shrinks to the suite own form', () => {
    const forms = fc.sample(clientForm(), { seed: 3, numRuns: 300 });
    expect(new Set(forms.map((form) => form.json))).toEqual(new Set(DIALECTS));
    expect(new Set(forms.map((form) => form.accept))).toEqual(new Set(ACCEPT_VALUES.map(({ value }) => value)));
    expect(new Set(forms.map((form) => form.contentType))).toEqual(new Set(CONTENT_TYPES.map(({ value }) => value)));
    // A property that fails for every form shrinks to the first value of each dimension.
    const details = fc.check(fc.property(clientForm(), () => false), { seed: 3 });
    expect(isBaselineForm(details.counterexample![0] as ClientForm)).toBe(true);
  });
});
