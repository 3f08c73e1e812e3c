/**
 * The pieces of secrets found inside text (src/secrets/pieces.ts), which skips ahead by
 * blocks of 3 characters: every run of 8 or more characters of a secret (ASCII case
 * folded) is found, exactly where a window-by-window reading finds it, wherever it falls
 * against the skips; and 7 characters are never a piece.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PIECE_CHARS, SecretPieces, WindowFilter, type PieceSpan } from '../../src/secrets/pieces.js';

const fold = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/** Window by window, every start: the spans of `text` made of windows of `secrets`, merged where they touch or overlap. */
function reference(secrets: readonly string[], text: string): Array<Omit<PieceSpan, 'placeholder'>> {
  const windows = new Set<string>();
  for (const secret of secrets) {
    for (let start = 0; start + PIECE_CHARS <= secret.length; start++) {
      const window = fold(secret.slice(start, start + PIECE_CHARS));
      if (!/["\\]/.test(window)) windows.add(window);
    }
  }
  const spans: Array<Omit<PieceSpan, 'placeholder'>> = [];
  for (let start = 0; start + PIECE_CHARS <= text.length; start++) {
    if (!windows.has(fold(text.slice(start, start + PIECE_CHARS)))) continue;
    const last = spans.at(-1);
    if (last && last.end >= start) last.end = start + PIECE_CHARS;
    else spans.push({ start, end: start + PIECE_CHARS });
  }
  return spans;
}

function pieces(secrets: readonly string[]): SecretPieces {
  const found = new SecretPieces();
  secrets.forEach((secret, i) => found.add(secret, `[secret ${i}]`));
  return found;
}

const spansOf = (found: PieceSpan[]) => found.map(({ start, end }) => ({ start, end }));

describe('pieces of secrets inside text', () => {
  const key = 'sk_live_4f9/Qz+8Kx7=Bench-Key';

  test.each([
    ['at the start of the text', `${key.slice(0, 8)} and more`, [{ start: 0, end: 8 }]],
    ['at its very end', `a text that ends in ${key.slice(-8)}`, [{ start: 20, end: 28 }]],
    ['the whole text', key.slice(3, 11), [{ start: 0, end: 8 }]],
    ['case-swapped', `x ${key.slice(5, 16).toUpperCase()} y`, [{ start: 2, end: 13 }]],
    ['two pieces that touch are one span', `${key.slice(0, 8)}${key.slice(8, 16)}`, [{ start: 0, end: 16 }]],
    ['after a long run of nothing of it', `${'d'.repeat(1_000)}${key.slice(9, 17)}${'d'.repeat(5)}`, [{ start: 1_000, end: 1_008 }]],
  ])('a piece of 8 %s is found', (_where, text, expected) => {
    expect(spansOf(pieces([key]).find(text))).toEqual(expected);
  });

  test.each([
    ['7 characters', key.slice(0, 7)],
    ['7 characters at the end of a long text', `${'d'.repeat(500)}${key.slice(-7)}`],
    ['7 and 7 with one other between', `${key.slice(0, 7)}!${key.slice(8, 15)}`],
  ])('near miss: %s are no piece', (_what, text) => {
    expect(pieces([key]).find(text)).toEqual([]);
  });

  test('each span names the secret it is a piece of', () => {
    const found = pieces(['first-secret-0123', 'second-secret-4567']).find('a second-secret-4 b first-secr c');
    expect(found.map(({ placeholder }) => placeholder)).toEqual(['[secret 1]', '[secret 0]']);
  });

  test('property: whatever the secrets and the text, the spans are those a window-by-window reading finds', () => {
    // Secrets and text share an alphabet small enough for pieces, near misses and repeated blocks to be common.
    const char = fc.constantFrom(...'abcdEFGH01"\\-_é€'.split(''));
    const secret = fc.array(char, { minLength: 8, maxLength: 24 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        fc.array(fc.oneof(fc.array(char, { maxLength: 12 }).map((chars) => chars.join('')), fc.nat()), { maxLength: 12 }),
        (secrets, parts) => {
          // A number picks a slice of a secret (its case swapped on odd ones), the rest is noise.
          const text = parts
            .map((part) => {
              if (typeof part === 'string') return part;
              const from = secrets[part % secrets.length]!;
              const slice = from.slice(part % from.length, (part % from.length) + 6 + (part % 5));
              return part % 2 === 1 ? slice.toUpperCase() : slice;
            })
            .join('');
          expect(spansOf(pieces(secrets).find(text))).toEqual(reference(secrets, text));
        },
      ),
      { seed: 20261128, numRuns: 2_000 },
    );
  });
});

describe('the filter of windows', () => {
  test('it visits where a window of the set starts, as written or in another case, and skips the rest', () => {
    const filter = new WindowFilter();
    filter.add('Bench-Ke');
    const starts: number[] = [];
    filter.visit(`${'d'.repeat(100)}Bench-Ke and bench-ke`, (start) => starts.push(start));
    expect(starts).toEqual(expect.arrayContaining([100, 113]));
    // Far fewer than the 114 windows of the text are visited.
    expect(starts.length).toBeLessThan(10);
  });

  test('it visits only where the last 3 characters may end a window of the set: not one character before', () => {
    // Bench-Ke's blocks are ben, enc, nch, ch-, h-k and -ke: only -ke ends a window (skip 0); h-k is a skip of 1.
    const filter = new WindowFilter();
    filter.add('Bench-Ke');
    const starts: number[] = [];
    filter.visit(`${'d'.repeat(100)}Bench-Ke and bench-ke`, (start) => starts.push(start));
    expect(starts).toEqual([100, 113]);
    // Near miss: where the window looked at ends in h-k, one character before a window of the set could end, it is skipped.
    const early: number[] = [];
    filter.visit('zzzzzh-kzzzzzz', (start) => early.push(start));
    expect(early).toEqual([]);
  });

  test.each([7, 9])('near miss: a window of %i characters is a defect, refused', (length) => {
    expect(() => new WindowFilter().add('x'.repeat(length))).toThrow(`a window of ${length} characters, not 8`);
  });
});

