import fc from 'fast-check';

/** Where real columns and buffers end: VARCHAR(255) and (256), 1 KiB and 4 KiB fields. */
export const COLUMN_LIMITS = [255, 256, 1024, 4096] as const;

/** Characters by UTF-8 width, every one valid text: ASCII, Latin/Cyrillic/Hebrew, CJK and symbols, astral. */
const BY_WIDTH: Record<1 | 2 | 3 | 4, readonly string[]> = {
  1: [...'abcdefghijklmnopqrstuvwxyz0123456789 '],
  2: ['é', 'ß', 'ж', 'ש', 'ñ', 'ø'],
  3: ['中', '€', 'あ', '한', '—'],
  4: ['😀', '𝄞', '𠀀', '🐈'],
};

/** How a long text's length is counted: in characters (code points) or in UTF-8 bytes. */
export type LengthMeasure = 'characters' | 'bytes';

/**
 * Text of every scale up to several thousand characters, biased to land on, just under or
 * just over the usual column limits ({@link COLUMN_LIMITS}), counted either in characters
 * or in UTF-8 bytes: 85 three-byte characters are 255 bytes, so a column that counts bytes
 * and one that counts characters disagree on them. The text repeats a short pattern of
 * characters of one UTF-8 width (astral ones included). Built with `map` alone, so a
 * failing text shrinks to the shortest failing length of the simplest characters.
 */
export function longText(): fc.Arbitrary<string> {
  const length = fc.oneof(
    // Cross-shrinking lets a length drawn at a column limit shrink below it too.
    { withCrossShrink: true },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }) },
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...COLUMN_LIMITS), fc.integer({ min: -1, max: 1 })).map(([limit, offset]) => limit + offset) },
  );
  // Counted in bytes, ASCII would be counted in characters too: bytes come with wider characters.
  const sizing = fc.oneof(
    fc.record({ measure: fc.constant<LengthMeasure>('characters'), width: fc.constantFrom<1 | 2 | 3 | 4>(1, 2, 3, 4) }),
    fc.record({ measure: fc.constant<LengthMeasure>('bytes'), width: fc.constantFrom<1 | 2 | 3 | 4>(2, 3, 4) }),
  );
  const picks = fc.array(fc.nat({ max: 35 }), { minLength: 1, maxLength: 6 });
  return fc.tuple(length, sizing, picks).map(([length, { measure, width }, indexes]) => {
    const pattern = indexes.map((i) => BY_WIDTH[width][i % BY_WIDTH[width].length]!);
    // In bytes: as many characters of this width as fit, then ASCII to land exactly.
    const count = measure === 'characters' ? length : Math.floor(length / width);
    const text = Array.from({ length: count }, (_, i) => pattern[i % pattern.length]!).join('');
    return measure === 'characters' ? text : text + 'a'.repeat(length - count * width);
  });
}
