/**
 * Splits a HAR's bytes into the values the reader hands on: `log.version`, `log.creator`,
 * each element of `log.entries`, and every other value (which the reader validates and
 * drops). The document's own structure (the root object, `log`, the entries array) is
 * checked here, byte by byte; each value is handed on whole, as bytes for `JSON.parse`,
 * while it stays within `wholeBytes`, and past that in parts, for a bounded streaming
 * parser (har-reader.ts). Only the structure is looked at here, so a capture is not turned
 * into a stream of tokens, one per string piece (`npm run bench -- judge` measures it).
 */

/** Where a value sits in a capture. */
export type HarMember = 'version' | 'creator' | 'entry' | 'other';

/** A value of the capture: whole, its UTF-8 bytes (for `JSON.parse` once decoded); or a part of a large one, in order. */
export type HarPiece = { member: HarMember; bytes: Buffer } | { member: HarMember; part: Buffer; first: boolean; last: boolean };

/** The capture's JSON breaks; `atEnd` when it only ended too soon (a file cut short). */
export class HarSyntaxError extends Error {
  constructor(
    message: string,
    readonly atEnd: boolean,
  ) {
    super(message);
  }
}

/** What the structure expects next. */
const enum Expect {
  /** The document's value. */
  Document,
  /** A member's key, or the object's end (just after `{`). */
  KeyOrClose,
  Key,
  Colon,
  Value,
  /** An element, or the array's end (just after `[`). */
  ValueOrClose,
  CommaOrClose,
  /** Only whitespace: the document is complete. */
  Nothing,
}

/** The containers whose members this splitter tells apart. */
const enum Level {
  Root,
  Log,
  Entries,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** UTF-8's byte order mark, skipped at the file's start (its bytes by their offset). */
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/** `stringEnd`: the chunk ends inside the string, its last byte an escaping backslash, or not. */
const ESCAPED_AT_END = -2;
const OPEN_AT_END = -1;

/**
 * Where the string under way closes: the first quote from `from` that no backslash escapes
 * (`from` itself not escaped); or, when the chunk ends first, whether its last byte escapes
 * the next. A quote is found by `indexOf` (the bodies a HAR holds are long strings, and a
 * byte loop over them was most of the reading's time); it is escaped when an odd run of
 * backslashes stands before it.
 */
function stringEnd(chunk: Buffer, from: number): number {
  for (let at = from; ; ) {
    const quote = chunk.indexOf(QUOTE, at);
    const stop = quote < 0 ? chunk.length : quote;
    let run = 0;
    while (stop - run - 1 >= at && chunk[stop - run - 1] === BACKSLASH) run++;
    if (quote < 0) return run % 2 === 1 ? ESCAPED_AT_END : OPEN_AT_END;
    if (run % 2 === 0) return quote;
    at = quote + 1;
  }
}

const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** What ends a number or a literal (true, false, null). */
const endsScalar = (c: number) => isWhitespace(c) || c === 0x2c || c === 0x5d || c === 0x7d;

/** A value being read: where it is in its JSON, and its bytes so far (kept while within the bound). */
interface ValueState {
  member: HarMember | 'key';
  /** Containers open inside it. */
  depth: number;
  inString: boolean;
  /** The byte before was a backslash inside a string. */
  escaped: boolean;
  /** A number or a literal, which ends at the byte after it. */
  scalar: boolean;
  parts: Buffer[];
  bytes: number;
  /** Past the bound: handed on in parts. */
  large: boolean;
}

/**
 * The splitter: `push` each chunk of the capture's bytes, then `end`. Memory is one value's
 * `wholeBytes` at most: a larger value is handed on in parts as its bytes arrive.
 */
export class HarSplitter {
  #expect = Expect.Document;
  /** The containers open around the current position: the document's, `log`, `log.entries`. */
  readonly #levels: Level[] = [];
  /** The key of the member whose value comes next, at the root or in `log`. */
  #key = '';
  /** Bytes of the capture before the current chunk: for the offset an error names. */
  #offset = 0;
  /** The value being read, if any. */
  #value: ValueState | undefined;
  /** Where the structure broke, once the values before it were handed on. */
  #broken: HarSyntaxError | undefined;

  /** @param wholeBytes the largest value handed on whole, as text (bytes). */
  constructor(private readonly wholeBytes: number) {}

  /**
   * Takes the next bytes of the capture.
   * @returns the values (or parts of a large value) they complete, in order: those before a
   *   break in the structure, which the next call throws.
   * @throws HarSyntaxError where the structure breaks.
   */
  push(chunk: Buffer): HarPiece[] {
    if (this.#broken) throw this.#broken;
    const out: HarPiece[] = [];
    let i = 0;
    try {
      while (i < chunk.length) {
        if (this.#value) {
          i = this.#scanValue(chunk, i, out);
          continue;
        }
        const c = chunk[i]!;
        if (isWhitespace(c) || (this.#expect === Expect.Document && BYTE_ORDER_MARK[this.#offset + i] === c)) {
          i++;
          continue;
        }
        this.#structure(c, i);
        i = this.#value ? this.#scanValue(chunk, i + 1, out, i) : i + 1;
      }
    } catch (error) {
      // The values before the break are handed on first; the break comes with the next call.
      if (out.length === 0 || !(error instanceof HarSyntaxError)) throw error;
      this.#broken = error;
    }
    this.#offset += chunk.length;
    return out;
  }

  /**
   * The capture has no more bytes.
   * @returns a number or literal that ended the document.
   * @throws HarSyntaxError (`atEnd`) when the document is not complete.
   */
  end(): HarPiece[] {
    if (this.#broken) throw this.#broken;
    const value = this.#value;
    if (value?.scalar && this.#levels.length === 0) {
      this.#value = undefined;
      this.#expect = Expect.Nothing;
      return [{ member: 'other', bytes: Buffer.concat(value.parts) }];
    }
    if (this.#expect !== Expect.Nothing) throw new HarSyntaxError(this.#offset === 0 ? 'the file is empty' : `the JSON ends at byte ${this.#offset}, unfinished`, true);
    return [];
  }

  /** One structural byte: a container's start or end, a separator, or a value's first byte (which starts reading it). */
  #structure(c: number, i: number): void {
    const level = this.#levels.at(-1);
    switch (this.#expect) {
      case Expect.Document:
        if (c === 0x7b) return this.#open(Level.Root, Expect.KeyOrClose);
        return this.#startValue(c, i, 'other');
      case Expect.KeyOrClose:
      case Expect.Key:
        if (c === QUOTE) return this.#startValue(c, i, 'key');
        if (c === 0x7d && this.#expect === Expect.KeyOrClose) return this.#close();
        break;
      case Expect.Colon:
        if (c === 0x3a) {
          this.#expect = Expect.Value;
          return;
        }
        break;
      case Expect.Value:
      case Expect.ValueOrClose:
        if (c === 0x5d && this.#expect === Expect.ValueOrClose) return this.#close();
        if (level === Level.Root && this.#key === 'log' && c === 0x7b) return this.#open(Level.Log, Expect.KeyOrClose);
        if (level === Level.Log && this.#key === 'entries' && c === 0x5b) return this.#open(Level.Entries, Expect.ValueOrClose);
        return this.#startValue(c, i, level === Level.Entries ? 'entry' : level === Level.Log && (this.#key === 'version' || this.#key === 'creator') ? this.#key : 'other');
      case Expect.CommaOrClose:
        if (c === 0x2c) {
          this.#expect = level === Level.Entries ? Expect.Value : Expect.Key;
          return;
        }
        if (c === (level === Level.Entries ? 0x5d : 0x7d)) return this.#close();
        break;
      case Expect.Nothing:
        break;
    }
    throw this.#unexpected(c, i);
  }

  #open(level: Level, next: Expect): void {
    this.#levels.push(level);
    this.#expect = next;
  }

  #close(): void {
    this.#levels.pop();
    this.#expect = this.#levels.length === 0 ? Expect.Nothing : Expect.CommaOrClose;
  }

  #startValue(c: number, i: number, member: HarMember | 'key'): void {
    const container = c === 0x7b || c === 0x5b;
    const scalar = c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
    if (!container && !scalar && c !== QUOTE) throw this.#unexpected(c, i);
    this.#value = { member, depth: container ? 1 : 0, inString: c === QUOTE, escaped: false, scalar, parts: [], bytes: 0, large: false };
  }

  /**
   * Reads the value under way from `i` (its first byte at `from`, when it starts in this
   * chunk) to its end or the chunk's.
   * @returns where the structure goes on: after the value, or the chunk's end.
   */
  #scanValue(chunk: Buffer, i: number, out: HarPiece[], from = i): number {
    const value = this.#value!;
    let { depth, inString, escaped } = value;
    const scalar = value.scalar;
    let end = -1;
    for (; i < chunk.length; i++) {
      if (inString) {
        if (escaped) {
          escaped = false;
          continue;
        }
        const close = stringEnd(chunk, i);
        if (close < 0) {
          escaped = close === ESCAPED_AT_END;
          i = chunk.length;
          break;
        }
        i = close;
        inString = false;
        if (depth === 0) {
          end = i + 1;
          break;
        }
        continue;
      }
      const c = chunk[i]!;
      if (scalar) {
        if (endsScalar(c)) {
          end = i;
          break;
        }
      } else if (c === QUOTE) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) {
          end = i + 1;
          break;
        }
      }
    }
    Object.assign(value, { depth, inString, escaped });
    this.#take(value, chunk.subarray(from, end === -1 ? chunk.length : end), end !== -1, out);
    return end === -1 ? chunk.length : end;
  }

  /** Keeps a value's bytes, or hands them on once it is large; at its end, the value. */
  #take(value: ValueState, bytes: Buffer, last: boolean, out: HarPiece[]): void {
    value.bytes += bytes.length;
    if (value.member === 'key') {
      // A key longer than a value's bound names no member this splitter looks for.
      if (value.bytes <= this.wholeBytes) value.parts.push(bytes);
      else value.parts = [];
    } else if (value.large) out.push({ member: value.member, part: bytes, first: false, last });
    else if (value.bytes > this.wholeBytes) {
      value.large = true;
      out.push({ member: value.member, part: Buffer.concat([...value.parts, bytes]), first: true, last });
      value.parts = [];
    } else value.parts.push(bytes);
    if (!last) return;
    this.#value = undefined;
    if (value.member === 'key') {
      this.#key = this.#keyOf(value.parts);
      this.#expect = Expect.Colon;
      return;
    }
    // A value within one read is handed on as a view of it, uncopied.
    if (!value.large) out.push({ member: value.member, bytes: value.parts.length === 1 ? value.parts[0]! : Buffer.concat(value.parts) });
    this.#expect = this.#levels.length === 0 ? Expect.Nothing : Expect.CommaOrClose;
  }

  /** A member's key, unescaped; `''` for one too long to keep. */
  #keyOf(parts: Buffer[]): string {
    if (parts.length === 0) return '';
    const text = Buffer.concat(parts).toString('utf8');
    try {
      return JSON.parse(text) as string;
    } catch (error) {
      throw new HarSyntaxError(`a key is not a JSON string before byte ${this.#offset} (${(error as Error).message})`, false);
    }
  }

  #unexpected(c: number, i: number): HarSyntaxError {
    const shown = c >= 0x20 && c < 0x7f ? JSON.stringify(String.fromCharCode(c)) : `byte 0x${c.toString(16).padStart(2, '0')}`;
    return new HarSyntaxError(`unexpected ${shown} at byte ${this.#offset + i}`, false);
  }
}

