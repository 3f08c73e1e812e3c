import fc from 'fast-check';
import { longText } from './long-text.js';
import { unicodeText } from './unicode-text.js';

/** Whitespace a storage layer or framework may strip from the ends of a value. */
const EDGE_SPACE = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000'];
/** What may separate the lines of a value. */
const LINE_BREAK = ['\n', '\r\n', '\n\n', '\t', '\r'];
/**
 * C0 controls other than tab and line breaks, and DEL. A server may refuse a value holding
 * one with 400 (see check/refusal.ts); it may not crash on it or alter it.
 */
export const CONTROL_CHARACTERS = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f'];
/**
 * Strings that look like other JSON types or numbers: type affinity (SQLite), lenient
 * binders and YAML-minded serialisers turn them into numbers, booleans or null.
 */
const LOOKALIKE = ['123', '-0', '0', '007', '1e3', '1E3', '1.0', '-1', '0x1F', '9223372036854775808', 'true', 'false', 'null', 'NaN', 'Infinity', '[]', '{}', '""'];

/**
 * Valid text for a NewCategory string field, drawn so that the triggers that break real
 * storage layers and serialisers occur in every default run: everyday Unicode text
 * (astral characters, quotes, markup, right-to-left), whitespace at the ends, line breaks
 * and tabs inside, NUL and other controls, strings that look like other JSON types, and
 * lengths on every scale around the usual column limits. Never empty (an empty name is an
 * edge case the spec leaves open, observed apart).
 */
export function fieldText(): fc.Arbitrary<string> {
  const everyday = unicodeText({ maxLength: 24 });
  const space = fc.constantFrom(...EDGE_SPACE);
  const around = (separators: readonly string[]) =>
    fc.tuple(everyday, fc.constantFrom(...separators), everyday).map(([before, separator, after]) => before + separator + after);
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 6, arbitrary: everyday },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.tuple(space, everyday, space).map(([a, text, b]) => a + text + b),
        fc.tuple(space, everyday).map(([a, text]) => a + text),
        fc.tuple(everyday, space).map(([text, b]) => text + b),
      ),
    },
    { weight: 1, arbitrary: around(LINE_BREAK) },
    // NUL in half of them: it breaks PostgreSQL text and C strings.
    { weight: 2, arbitrary: fc.oneof(around(['\u0000']), around(CONTROL_CHARACTERS)) },
    { weight: 1, arbitrary: fc.constantFrom(...LOOKALIKE) },
    { weight: 2, arbitrary: longText() },
  );
}
