/**
 * Pieces of secrets inside text: every run of {@link PIECE_CHARS} characters or more of a
 * secret, whatever the case of its ASCII letters. A server that echoes a credential split
 * across two header fields or two JSON strings (`"Bearer sk_live_4f9/Q"`, `"z+8Kx7=…"`),
 * or case-swapped as the run's own derived credentials are, gives the key back piece by
 * piece: no piece of 8 or more may stay.
 *
 * Found in one pass that skips ({@link WindowFilter}): only where a window of a secret may
 * end is the window compared, by its hash, with the windows of every secret; a run of 8 or
 * more is exactly a union of such windows. A text with nothing of a secret costs some n / 6
 * steps (5 times faster than hashing every window, on a 235 KB list); at worst, n.
 */

/** Length of the shortest piece of a secret that is found on its own (characters). */
export const PIECE_CHARS = 8;

/**
 * Windows kept at most (about 100 bytes each): the pieces of the first secrets, some
 * thousands of them. Past it, a secret is still found whole (Redactor), not by its pieces.
 */
export const MAX_PIECE_WINDOWS = 200_000;

/** A span of text that is a piece of a secret, with the secret's placeholder. */
export interface PieceSpan {
  start: number;
  end: number;
  placeholder: string;
}

/** Characters of the block whose table says how far to skip. */
const BLOCK = 3;
/** The longest skip: past a block that ends no window's block. */
const MAX_SKIP = PIECE_CHARS - BLOCK + 1;

const BASE = 31;

/** An ASCII letter's lower case; every other UTF-16 unit as it is (folding beyond ASCII could change the length). */
function folded(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/**
 * Where a window of {@link PIECE_CHARS} characters out of a set may end in a text (Wu and
 * Manber's shift table, 1994): for each block of {@link BLOCK} characters (by a 16-bit
 * hash, case-folded), how many characters a window of the set that holds it ends after it,
 * at the fewest. Blocks that share a hash share the fewest, and folding only makes more
 * blocks alike: a skip is never too long, and every window of the set in a text is visited.
 */
export class WindowFilter {
  readonly #skip = new Uint8Array(1 << 16).fill(MAX_SKIP);

  /**
   * Adds a window.
   * @throws Error, a defect of the tool, when it is not {@link PIECE_CHARS} characters long.
   */
  add(window: string): void {
    if (window.length !== PIECE_CHARS) throw new Error(`a window of ${window.length} characters, not ${PIECE_CHARS}`);
    for (let last = BLOCK - 1; last < PIECE_CHARS; last++) {
      const block = blockAt(window, last);
      this.#skip[block] = Math.min(this.#skip[block]!, PIECE_CHARS - 1 - last);
    }
  }

  /**
   * Calls `visit` with the start of each window of `text` that may be one of the set, in
   * order: every one that is, and some that are not (the caller compares them). A text
   * that holds nothing of the set costs some n / 6 steps; at worst, n.
   */
  visit(text: string, visit: (start: number) => void): void {
    // `last`: the index of the last character of the window looked at.
    for (let last = PIECE_CHARS - 1; last < text.length; ) {
      const skip = this.#skip[blockAt(text, last)]!;
      if (skip > 0) {
        last += skip;
        continue;
      }
      visit(last + 1 - PIECE_CHARS);
      last++;
    }
  }
}

/**
 * The windows of registered secrets. By default, characters that delimit JSON strings
 * (`"`, `\`) never belong to a piece: replacing one in a JSON document's text would break
 * it; a secret that holds them is found in the pieces between them. A set made `quoted`
 * holds only the windows that do hold one: the Redactor looks for those where a `"` is a
 * character of the text, in text that is no JSON document and in the decoded view of
 * escaped text, so that no run around a key's `"` or `\` is left (issue 59).
 */
export class SecretPieces {
  /** @param quoted whether the set holds only the windows with `"` or `\` (else only those without). */
  constructor(private readonly quoted = false) {}

  /** Hash of each window to the windows (case-folded) that have it, with their placeholder. */
  readonly #windows = new Map<number, Array<{ window: string; placeholder: string }>>();
  /** A bit per hash's low 16 bits that some window has: most windows of a text miss it, and skip the map lookup. */
  readonly #seen = new Uint8Array(1 << 16);
  /** Where a window may end: only there is a window of the text compared. */
  readonly #filter = new WindowFilter();
  #count = 0;

  /** Registers the windows of a secret (none for a secret shorter than {@link PIECE_CHARS}). */
  add(secret: string, placeholder: string): void {
    const text = foldedText(secret);
    for (let start = 0; start + PIECE_CHARS <= text.length && this.#count < MAX_PIECE_WINDOWS; start++) {
      const window = text.slice(start, start + PIECE_CHARS);
      if (/["\\]/.test(window) !== this.quoted) continue;
      const hash = hashOf(window);
      const bucket = this.#windows.get(hash) ?? [];
      if (bucket.some((known) => known.window === window)) continue;
      bucket.push({ window, placeholder });
      this.#windows.set(hash, bucket);
      this.#seen[hash & 0xffff] = 1;
      this.#filter.add(window);
      this.#count++;
    }
  }

  /** Whether any window is registered. */
  get size(): number {
    return this.#count;
  }

  /**
   * The spans of `text` that are runs of {@link PIECE_CHARS} or more characters of a secret, merged where they touch or overlap, in order.
   * @param accept whether a window [start, end) of `text` may count (all do by default); asked before windows merge.
   */
  find(text: string, accept?: (start: number, end: number) => boolean): PieceSpan[] {
    const spans: PieceSpan[] = [];
    if (this.#count === 0) return spans;
    this.#filter.visit(text, (start) => {
      const end = start + PIECE_CHARS;
      const window = foldedText(text.slice(start, end));
      const hash = hashOf(window);
      const hit = this.#seen[hash & 0xffff] === 0 ? undefined : this.#windows.get(hash)?.find((known) => known.window === window);
      if (!hit || (accept && !accept(start, end))) return;
      const previous = spans.at(-1);
      if (previous && previous.end >= start) previous.end = end;
      else spans.push({ start, end, placeholder: hit.placeholder });
    });
    return spans;
  }
}

/** `text` with its ASCII letters lower-cased and every other UTF-16 unit as it is, so that lengths and offsets hold. */
export function foldedText(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : text;
}

function hashOf(window: string): number {
  let hash = 0;
  for (let i = 0; i < window.length; i++) hash = (Math.imul(hash, BASE) + window.charCodeAt(i)) >>> 0;
  return hash;
}

/** The hash (16 bits) of the {@link BLOCK} (3) characters of `text` that end at `last`, case-folded. */
function blockAt(text: string, last: number): number {
  return (folded(text.charCodeAt(last - 2)) * 961 + folded(text.charCodeAt(last - 1)) * 31 + folded(text.charCodeAt(last))) & 0xffff;
}
