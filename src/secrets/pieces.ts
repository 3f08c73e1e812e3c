/**
 * Pieces of secrets inside text: every run of {@link PIECE_CHARS} characters or more of a
 * secret, whatever the case of its ASCII letters. A server that echoes a credential split
 * across two header fields or two JSON strings (`"Bearer sk_live_4f9/Q"`, `"z+8Kx7=…"`),
 * or case-swapped as the run's own derived credentials are, gives the key back piece by
 * piece: no piece of 8 or more may stay.
 *
 * Found in one pass: each window of 8 characters is hashed as it slides (a polynomial
 * rolling hash over the case-folded text) and looked up among the windows of every
 * secret; a run of 8 or more is exactly a union of such windows. A text of n characters
 * costs n lookups, whatever the number of secrets.
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

const BASE = 31;
/** BASE to the power PIECE_CHARS - 1, modulo 2^32: what the window's first character weighs. */
const LEAD = Array.from({ length: PIECE_CHARS - 1 }).reduce<number>((power) => Math.imul(power, BASE) >>> 0, 1);

/** An ASCII letter's lower case; every other UTF-16 unit as it is (folding beyond ASCII could change the length). */
function folded(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/**
 * The windows of registered secrets. Characters that delimit JSON strings (`"`, `\`) never
 * belong to a piece: replacing one would break the JSON document a body is; a secret that
 * holds them is found in the pieces between them.
 */
export class SecretPieces {
  /** Hash of each window to the windows (case-folded) that have it, with their placeholder. */
  readonly #windows = new Map<number, Array<{ window: string; placeholder: string }>>();
  /** A bit per hash's low 16 bits that some window has: most windows of a text miss it, and skip the map lookup. */
  readonly #seen = new Uint8Array(1 << 16);
  #count = 0;

  /** Registers the windows of a secret (none for a secret shorter than {@link PIECE_CHARS}). */
  add(secret: string, placeholder: string): void {
    const text = foldedText(secret);
    for (let start = 0; start + PIECE_CHARS <= text.length && this.#count < MAX_PIECE_WINDOWS; start++) {
      const window = text.slice(start, start + PIECE_CHARS);
      if (/["\\]/.test(window)) continue;
      const hash = hashOf(window);
      const bucket = this.#windows.get(hash) ?? [];
      if (bucket.some((known) => known.window === window)) continue;
      bucket.push({ window, placeholder });
      this.#windows.set(hash, bucket);
      this.#seen[hash & 0xffff] = 1;
      this.#count++;
    }
  }

  /** Whether any window is registered. */
  get size(): number {
    return this.#count;
  }

  /** The spans of `text` that are runs of {@link PIECE_CHARS} or more characters of a secret, merged where they touch or overlap, in order. */
  find(text: string): PieceSpan[] {
    const spans: PieceSpan[] = [];
    if (this.#count === 0 || text.length < PIECE_CHARS) return spans;
    let hash = 0;
    for (let i = 0; i < PIECE_CHARS - 1; i++) hash = (Math.imul(hash, BASE) + folded(text.charCodeAt(i))) >>> 0;
    for (let start = 0; start + PIECE_CHARS <= text.length; start++) {
      const end = start + PIECE_CHARS;
      hash = (Math.imul(hash, BASE) + folded(text.charCodeAt(end - 1))) >>> 0;
      const bucket = this.#seen[hash & 0xffff] === 0 ? undefined : this.#windows.get(hash);
      if (bucket) {
        const window = foldedText(text.slice(start, end));
        const hit = bucket.find((known) => known.window === window);
        if (hit) {
          const last = spans.at(-1);
          if (last && last.end >= start) last.end = end;
          else spans.push({ start, end, placeholder: hit.placeholder });
        }
      }
      // The leaving character's weight out, ready for the next one in.
      hash = (hash - Math.imul(folded(text.charCodeAt(start)), LEAD)) >>> 0;
    }
    return spans;
  }
}

function foldedText(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

function hashOf(window: string): number {
  let hash = 0;
  for (let i = 0; i < window.length; i++) hash = (Math.imul(hash, BASE) + window.charCodeAt(i)) >>> 0;
  return hash;
}
