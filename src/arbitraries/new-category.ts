import fc from 'fast-check';
import { schemas } from '../schema/validators.js';
import { covers, type CoverageInput } from './coverage.js';
import { EVERYDAY_NAMES } from './everyday-names.js';
import { fieldText } from './field-text.js';
import { COLUMN_LIMITS } from './long-text.js';
import { schemaValue } from './schema-value.js';

/** A NewCategory as sent: `name`, and `description` when present (spec section 2). */
export interface NewCategoryValue {
  name: string;
  description?: string;
}

/**
 * Valid NewCategory bodies, derived from `schemas/new-category.schema.json`: every string
 * field is {@link fieldText} (everyday text and the values that break storage layers);
 * `description` present or absent.
 */
export function newCategory(): fc.Arbitrary<NewCategoryValue> {
  return schemaValue(schemas.NewCategory, { text: fieldText() }) as fc.Arbitrary<NewCategoryValue>;
}

/** `length` characters of `unit` after a short readable head, so that nothing but the length is unusual. */
const sized = (head: string, unit: string, length: number) => head + unit.repeat(length - [...head].length);

/**
 * The coverage phase of valid bodies: every trigger the generators know, sent in every
 * run. Each trigger stands alone in one field, and the other field holds `tag(what)`, a
 * text unique to the run and the check: a server that refuses one class of values (a
 * policy, check/refusal.ts) is told apart from one that refuses everyday ones, and no two
 * creates of a run, or of two runs, send the same body (a create cut off by a reset is
 * looked for in the list by its fields, check/applied.ts).
 * - the everyday names (each must be created);
 * - in each field: whitespace at the ends, line breaks and a tab, NUL, other C0 controls,
 *   DEL (each class alone, so a policy is told apart in every run), quotes, a backslash and markup, characters outside the BMP, the empty string;
 * - strings that look like another JSON type, each in each field;
 * - lengths just over the usual column limits ({@link COLUMN_LIMITS}), counted in characters
 *   (ASCII) and in UTF-8 bytes (three-byte characters, fewer of them than the limit);
 * - the same name twice, with two descriptions.
 * @param tag text unique to the run and the check for `what` (see check/context.ts, testDataName).
 */
export function newCategoryCoverage(tag: (what: string) => string): Array<CoverageInput<NewCategoryValue>> {
  const inName = (label: string, name: string) => covers(`name: ${label}`, { name, description: tag(`name: ${label}`) });
  const inDescription = (label: string, description: string) => covers(`description: ${label}`, { name: tag(`description: ${label}`), description });
  const triggers: Array<[string, string]> = [
    ['whitespace at both ends', '  Dogs and cats  '],
    ['a line break inside', 'line one\nline two'],
    ['CRLF and a tab inside', 'carriage\r\nreturn\tand tab'],
    ['NUL inside', 'nul \u0000 inside'],
    ['other C0 controls inside', 'bell \u0007 escape \u001b[31m end'],
    // Apart from C0: a validator of /[\x00-\x1f]/ accepts DEL, so a refusal is told apart in every run.
    ['DEL inside', 'delete \u007f end'],
    ['quotes, a backslash and markup', 'say "hi" \\ <b>bold</b> & 100% {x}'],
    ['characters outside the BMP', 'Cats 🐈 music 𝄞 ideograph 𠀀'],
    ['the empty string', ''],
  ];
  const lookalikes = ['123', '-0', '1e3', '0x1F', 'true', 'null'].map((text) => [`${JSON.stringify(text)}, a string that looks like another JSON type`, text] as [string, string]);
  const lengths = [
    ...[255, ...COLUMN_LIMITS.map((limit) => limit + 1)].map((length) => inName(`${length} characters`, sized('Long name ', 'x', length))),
    ...[256, 1025, 4097].map((bytes) => {
      const count = Math.ceil(bytes / 3);
      return inName(`${count} three-byte characters (${count * 3} UTF-8 bytes)`, '中'.repeat(count));
    }),
    inDescription('4097 characters', sized('Long description ', 'x', 4097)),
    inDescription('1366 three-byte characters (4098 UTF-8 bytes)', '中'.repeat(1366)),
  ];
  return [
    ...EVERYDAY_NAMES.map((name) => inName(`everyday ${JSON.stringify(name)}`, name)),
    ...[...triggers, ...lookalikes].flatMap(([label, text]) => [inName(label, text), inDescription(label, text)]),
    ...lengths,
    ...['first', 'second'].map((which) => covers(`the same name twice (${which})`, { name: 'The same name twice', description: tag(`the same name twice, ${which}`) })),
  ];
}
