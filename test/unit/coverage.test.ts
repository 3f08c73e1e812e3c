/**
 * The coverage phases (src/arbitraries/*Coverage): every known trigger is in the list, so
 * every run sends it whatever the seed; each input is what its label says, and holds its
 * trigger in one field only, so a refusal or a fault points at one class of value.
 */
import { describe, expect, test } from 'vitest';
import { EVERYDAY_NAMES } from '../../src/arbitraries/everyday-names.js';
import { CREDENTIAL_MUTATIONS, credentialCoverage } from '../../src/arbitraries/invalid-credential.js';
import { invalidBodyCoverage } from '../../src/arbitraries/invalid-body.js';
import { newCategoryCoverage } from '../../src/arbitraries/new-category.js';
import { classesOf } from '../../src/check/refusal.js';
import { schemas, violations } from '../../src/schema/validators.js';

const utf8 = (text: string) => Buffer.byteLength(text);

describe('newCategoryCoverage', () => {
  const inputs = newCategoryCoverage((what) => `pcs-0123 ${what}`.replace(/[^\x20-\x7e]/g, '?').trim());
  const labels = inputs.map(({ label }) => label);

  test('every input is a valid NewCategory, each label once', () => {
    for (const { label, value } of inputs) expect(violations('NewCategory', value), label).toEqual([]);
    expect(new Set(labels).size).toBe(labels.length);
  });

  test.each<[string, (text: string) => boolean]>([
    ['whitespace at both ends', (text: string) => text !== text.trim() && /^\s/.test(text) && /\s$/.test(text)],
    ['a line break inside', (text: string) => text.includes('\n')],
    ['CRLF and a tab inside', (text: string) => text.includes('\r\n') && text.includes('\t')],
    ['NUL inside', (text: string) => text.includes('\u0000')],
    ['other C0 controls inside', (text: string) => /[\u0001-\u0008\u000b\u000c\u000e-\u001f]/.test(text) && !text.includes('\u007f')],
    ['DEL inside', (text: string) => text.includes('\u007f') && !/[\u0000-\u001f]/.test(text)],
    ['characters outside the BMP', (text: string) => [...text].some((c) => c.codePointAt(0)! > 0xffff)],
    ...['123', '-0', '1e3', '0x1F', 'true', 'null'].map((lookalike) => [`${JSON.stringify(lookalike)}, a string that looks like another JSON type`, (text: string) => text === lookalike] as [string, (text: string) => boolean]),
  ])('%s: in the name and in the description, the other field everyday', (trigger, holds) => {
    for (const field of ['name', 'description'] as const) {
      const input = inputs.find(({ label }) => label === `${field}: ${trigger}`);
      expect(input, `${field}: ${trigger}`).toBeDefined();
      expect(holds(input!.value[field]!)).toBe(true);
      const other = field === 'name' ? 'description' : 'name';
      expect(classesOf({ [other]: input!.value[other] })).toEqual([]);
    }
  });

  test('lengths just past each usual column limit, counted in characters and in UTF-8 bytes', () => {
    const names = inputs.map(({ value }) => value.name);
    for (const length of [256, 1025, 4097]) expect(names.some((name) => [...name].length === length && utf8(name) === length), `${length} characters`).toBe(true);
    for (const bytes of [256, 1025, 4097]) expect(names.some((name) => utf8(name) >= bytes && utf8(name) < bytes + 3 && [...name].length < bytes), `${bytes} bytes`).toBe(true);
    expect(inputs.some(({ value }) => [...(value.description ?? '')].length === 4097)).toBe(true);
  });

  test('everyday names, 1 to 64 characters, hold no class a policy may refuse', () => {
    expect(EVERYDAY_NAMES.length).toBeGreaterThanOrEqual(10);
    for (const name of EVERYDAY_NAMES) {
      expect([...name].length).toBeGreaterThanOrEqual(1);
      expect([...name].length).toBeLessThanOrEqual(64);
      expect(classesOf({ name }), name).toEqual([]);
      expect(labels).toContain(`name: everyday ${JSON.stringify(name)}`);
    }
    // Several scripts, digits and punctuation among them.
    expect(EVERYDAY_NAMES.join('')).toMatch(/[a-z]/);
    expect(EVERYDAY_NAMES.join('')).toMatch(/[\u0400-\u04ff]/);
    expect(EVERYDAY_NAMES.join('')).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    expect(EVERYDAY_NAMES.join('')).toMatch(/\d/);
  });

  test('the same name twice, with two descriptions', () => {
    const twice = inputs.filter(({ label }) => label.startsWith('the same name twice'));
    expect(twice).toHaveLength(2);
    expect(twice[0]!.value.name).toBe(twice[1]!.value.name);
    expect(twice[0]!.value.description).not.toBe(twice[1]!.value.description);
  });
});

describe('invalidBodyCoverage', () => {
  const inputs = invalidBodyCoverage(schemas.NewCategory, { name: 'Cats', description: 'Felines' });
  const labels = inputs.map(({ label }) => label);

  test('every body is refused by JSON or by the NewCategory schema', () => {
    for (const { label, value } of inputs) {
      if ('json' in value.body) expect(violations('NewCategory', value.body.json), label).not.toEqual([]);
      else {
        // Text is malformed JSON, or JSON whose value is invalid whichever duplicate key a parser keeps.
        const text = (value.body as { text: string }).text;
        const parsed = (() => {
          try {
            return { value: JSON.parse(text) as unknown };
          } catch {
            return undefined;
          }
        })();
        if (parsed) expect(violations('NewCategory', parsed.value), label).not.toEqual([]);
      }
    }
  });

  test('every shape: roots, an array of pairs, a nested object, each type for each field, duplicate keys', () => {
    expect(labels).toEqual(
      expect.arrayContaining([
        'without name',
        ...['number', 'boolean', 'null', 'array', 'object'].flatMap((type) => [`name as ${type}`, `description as ${type}`]),
        'root is an array holding the body',
        'root is an array of [key, value] pairs',
        'root is string',
        'root is number',
        'root is boolean',
        'root is null',
        'the body nested under a key',
        'name given twice, as a number and as a boolean',
        'empty body',
      ]),
    );
    const pairs = inputs.find(({ label }) => label === 'root is an array of [key, value] pairs')!.value.body;
    expect(pairs).toEqual({ json: [['name', 'Cats'], ['description', 'Felines']] });
    // Duplicate keys (RFC 8259 §4): a parser keeping the first and one keeping the last both see a wrong type.
    const twice = inputs.find(({ label }) => label === 'name given twice, as a number and as a boolean')!.value.body;
    expect(twice).toEqual({ text: '{"name":42,"description":"Felines","name":true}' });
  });
});

describe('credentialCoverage', () => {
  const key = 'aB3-xY9_kQ2.zz~0123';
  const inputs = credentialCoverage(key);

  test('every kind of mutation, none of them the valid credential', () => {
    const kinds = new Set(inputs.map(({ value }) => value.credential.name));
    for (const { kind } of CREDENTIAL_MUTATIONS) expect(kinds, kind).toContain(kind);
    for (const { value } of inputs) expect(value.credential.header?.trim()).not.toBe(`Bearer ${key}`);
  });

  test('what the example checks send on both operations goes to createCategory; the rest to both', () => {
    expect(inputs.filter(({ value }) => value.operations === 'both').length).toBeGreaterThan(5);
    expect(inputs.find(({ value }) => value.credential.name === 'missing')?.value.operations).toBe('create');
  });

  test('labels show no key material', () => {
    for (const { label } of inputs) expect(label).not.toContain(key.slice(0, 6));
  });

  test('the key under every scheme and encoding an attacker tries first, on both operations, each header exactly as its notation says', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const expected: Record<string, string> = {
      'Basic base64(KEY:)': `Basic ${b64(`${key}:`)}`,
      'Basic base64(:KEY)': `Basic ${b64(`:${key}`)}`,
      'Basic base64(KEY:KEY)': `Basic ${b64(`${key}:${key}`)}`,
      'Token KEY': `Token ${key}`,
      'ApiKey KEY': `ApiKey ${key}`,
      'Key KEY': `Key ${key}`,
      'Bearer base64(KEY)': `Bearer ${b64(key)}`,
      'Bearer KEY, Bearer KEY': `Bearer ${key}, Bearer ${key}`,
    };
    const both = new Map(inputs.filter(({ value }) => value.operations === 'both').map(({ label, value }) => [value.credential.notation, { label, header: value.credential.header }]));
    for (const [notation, header] of Object.entries(expected)) {
      expect(both.get(notation)?.header, notation).toBe(header);
      expect(both.get(notation)?.label, notation).toMatch(new RegExp(`\\(${notation.replace(/[()]/g, '\\$&')}\\)$`));
    }
  });
});
