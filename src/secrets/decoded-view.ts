import { decodeHTML } from 'entities';

/** One escape: where its decoded text sits in the view, and the span of the original it came from. */
interface Escape {
  /** Index of its first decoded character in the view. */
  at: number;
  /** Decoded characters it stands for. */
  length: number;
  start: number;
  end: number;
}

/**
 * Text with its escapes decoded, able to say which span of the original any span of the
 * decoded text came from: a secret a server echoed escaped is found in the decoded text
 * and replaced in the original.
 */
export class DecodedView {
  private constructor(
    readonly text: string,
    /** The escapes decoded, in order; between them the text is the original's, one to one. */
    private readonly escapes: readonly Escape[],
  ) {}

  /**
   * Decodes, in one pass and wherever they occur, the escapes servers echo a credential
   * in: JSON's `\uXXXX` (any character) and `\/` (PHP's default), percent-encoding of ASCII
   * (a cookie, a URL), and HTML character references, numeric and named (through `he`).
   * Escapes that do not decode stay as they are.
   * @returns the view, or undefined when the text holds no escape (the common case).
   */
  static of(original: string): DecodedView | undefined {
    if (!original.includes('\\') && !original.includes('%') && !original.includes('&')) return undefined;
    const parts: string[] = [];
    const escapes: Escape[] = [];
    let at = 0;
    let length = 0;
    for (const match of original.matchAll(ESCAPE)) {
      const decoded = decode(match);
      if (decoded === match[0]) continue; // an unknown entity: left as it is
      parts.push(original.slice(at, match.index), decoded);
      length += match.index - at;
      escapes.push({ at: length, length: decoded.length, start: match.index, end: match.index + match[0].length });
      length += decoded.length;
      at = match.index + match[0].length;
    }
    if (escapes.length === 0) return undefined;
    parts.push(original.slice(at));
    return new DecodedView(parts.join(''), escapes);
  }

  /** The span [start, end) of the original that the decoded span [from, to) came from. */
  original(from: number, to: number): [number, number] {
    return [this.#position(from, 'start'), this.#position(to - 1, 'end')];
  }

  /** Where decoded character `i` starts or ends in the original. */
  #position(i: number, side: 'start' | 'end'): number {
    // The last escape at or before i (binary search: a 13 MB list may hold thousands).
    let low = 0;
    let high = this.escapes.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.escapes[mid]!.at <= i) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    if (found === -1) return side === 'start' ? i : i + 1;
    const escape = this.escapes[found]!;
    if (i < escape.at + escape.length) return side === 'start' ? escape.start : escape.end;
    const offset = escape.end + (i - escape.at - escape.length);
    return side === 'start' ? offset : offset + 1;
  }
}

const ESCAPE = /\\u([0-9a-fA-F]{4})|\\([/\\"bfnrt])|%([0-7][0-9a-fA-F])|&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;
const SIMPLE: Record<string, string> = { '/': '/', '\\': '\\', '"': '"', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function decode(match: RegExpExecArray | RegExpMatchArray): string {
  const [, unicode, simple, percent, entity] = match;
  if (unicode !== undefined) return String.fromCharCode(parseInt(unicode, 16));
  if (simple !== undefined) return SIMPLE[simple]!;
  if (percent !== undefined) return String.fromCharCode(parseInt(percent, 16));
  return decodeHTML(`&${entity};`);
}
