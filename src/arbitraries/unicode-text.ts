import fc from 'fast-check';

/** Options of {@link unicodeText}. */
export interface UnicodeTextConstraints {
  /** Fewest characters (code-point sequences drawn as units), default 1. */
  minLength?: number;
  /** Most characters, default 200. */
  maxLength?: number;
}

const code = (min: number, max: number) => fc.integer({ min, max }).map((cp) => String.fromCodePoint(cp));

/**
 * One character of valid text, from every region a server can mishandle: ASCII, JSON and
 * HTML metacharacters (quotes, backslash, `<>&`), Latin-1 and beyond, combining marks,
 * right-to-left scripts, CJK, astral-plane emoji and ideographs, ZWJ sequences, and
 * non-ASCII spaces. No control characters: field-text.ts adds those on purpose.
 */
const unit: fc.Arbitrary<string> = fc.oneof(
  // Cross-shrinking lets any character shrink to 'a', so counterexamples come out minimal.
  { withCrossShrink: true },
  { weight: 8, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') },
  { weight: 3, arbitrary: fc.constantFrom('"', '\\', "'", '<', '>', '&', '/', '{', '}', '[', ']', ':', ',', '%', '#', '?', '=', '+', '@', '`', '$', '*') },
  { weight: 2, arbitrary: fc.constantFrom(' ', '\u00a0', '\u2003', '\u3000') },
  { weight: 2, arbitrary: code(0xa1, 0x24f) }, // Latin-1 Supplement to Latin Extended-B
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'e', 'o', 'n'), code(0x300, 0x36f)).map(([base, mark]) => base + mark) },
  { weight: 1, arbitrary: code(0x5d0, 0x5ea) }, // Hebrew letters
  { weight: 1, arbitrary: code(0x627, 0x64a) }, // Arabic letters
  { weight: 1, arbitrary: code(0x4e00, 0x9fff) }, // CJK Unified Ideographs
  { weight: 2, arbitrary: code(0x1f300, 0x1f64f) }, // emoji (astral: a surrogate pair in UTF-16)
  { weight: 1, arbitrary: code(0x20000, 0x2a6df) }, // CJK Extension B (astral)
  { weight: 1, arbitrary: fc.constantFrom('👩‍👩‍👧', '🏳️‍🌈', '🐈‍⬛') },
);

/**
 * Valid, non-empty everyday text of up to `maxLength` characters (default 200), spaces
 * anywhere, the ends included: a server must store what it was sent (4.2/R1).
 * Uses fast-check's largest size, so long texts really occur (the default size stops
 * around a dozen characters).
 */
export function unicodeText(constraints: UnicodeTextConstraints = {}): fc.Arbitrary<string> {
  const { minLength = 1, maxLength = 200 } = constraints;
  return fc.array(unit, { minLength, maxLength, size: 'max' }).map((units) => units.join(''));
}
