import jsonpointer from 'jsonpointer';
import { isLosslessNumber, LosslessNumber, parse } from 'lossless-json';
import { integerFromLexeme } from './int64.js';

/**
 * A JSON document in two views: `tree`, where every number is exact (a LosslessNumber
 * holding its lexeme, or a plain number when no number of the text can be rounded), and
 * `value`, the plain JavaScript view that schema validation (ajv) works on.
 */
export interface ParsedJson {
  tree: unknown;
  value: unknown;
}

/** Outcome of {@link parseJson}: the document, or why the text is not JSON. */
export type JsonParseResult = { ok: true; json: ParsedJson } | { ok: false; reason: string };

/**
 * Parses JSON text (RFC 8259) without losing the exact value of any number; a leading
 * byte order mark is ignored (§8.1 allows a parser to). Never throws: malformed text, duplicate keys with different values and empty text
 * are reported as `{ ok: false, reason }`.
 */
export function parseJson(text: string): JsonParseResult {
  // The judgements of one exchange read its body one after another: a list of 6 MB is parsed once, not once each.
  const last = lastParsed?.deref();
  if (last?.text === text) return last.result;
  const result = parsedJson(text);
  lastParsed = new WeakRef({ text, result });
  return result;
}

/**
 * The last text parsed and its outcome (results are never mutated: every reader only
 * reads them), held weakly: it lasts through the task that parsed it (ECMA-262 keeps a
 * WeakRef's target alive to the end of the job) and until the next collection, never
 * longer. Held strongly, a 10 MB list and its 16 MB tree stayed alive after their check
 * was judged, a third of the run's live heap at 100,000 categories.
 */
let lastParsed: WeakRef<{ text: string; result: JsonParseResult }> | undefined;

function parsedJson(text: string): JsonParseResult {
  // RFC 8259 §8.1: a parser MAY ignore a byte order mark (judged apart: json-without-byte-order-mark).
  if (text.startsWith(BYTE_ORDER_MARK)) text = text.slice(1);
  if (text.trim() === '') return { ok: false, reason: 'the body is empty' };
  const { depth, inexact } = scanJson(text);
  try {
    // Fast path: one native parse is exact when no number lexeme could lose digits as a
    // double; the tree is then the plain value itself (numbers where lexemes would be).
    // V8's JSON.parse keeps its own stack: any depth parses.
    if (!inexact) {
      const value = JSON.parse(text) as unknown;
      return { ok: true, json: { tree: value, value } };
    }
    // lossless-json recurses once per level: past a depth it could overflow, the tree is built with a stack of our own.
    if (depth > RECURSIVE_DEPTH) {
      const value = JSON.parse(text) as unknown;
      return { ok: true, json: { tree: deepTree(text), value } };
    }
    const tree = parse(text);
    return { ok: true, json: { tree, value: toPlain(tree) } };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

/**
 * The exact tree of a document nested deeper than {@link RECURSIVE_DEPTH}, as lossless-json
 * builds it (every number a LosslessNumber, a `__proto__` member kept as data, a member
 * given twice with different values refused), with an explicit stack instead of recursion.
 * Reads text the native parser has accepted: it assumes valid JSON.
 * @throws Error for a member given twice with different values.
 */
function deepTree(text: string): unknown {
  type Frame = { container: Record<string, unknown> | unknown[]; start: number; key?: string; spans?: Map<string, string> };
  const stack: Frame[] = [];
  let root: unknown;
  const place = (value: unknown, start: number, end: number) => {
    const frame = stack.at(-1);
    if (!frame) return void (root = value);
    if (Array.isArray(frame.container)) return void frame.container.push(value);
    const key = frame.key!;
    frame.key = undefined;
    const span = text.slice(start, end);
    const spans = (frame.spans ??= new Map());
    if (spans.has(key) && spans.get(key) !== span) throw new Error(`Duplicate key '${key}' encountered at position ${start}`);
    spans.set(key, span);
    Object.defineProperty(frame.container, key, { value, writable: true, enumerable: true, configurable: true });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE) stack.push({ container: {}, start: i });
    else if (c === OPEN_BRACKET) stack.push({ container: [], start: i });
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      const { container, start } = stack.pop()!;
      place(container, start, i + 1);
    } else if (c === QUOTE) {
      const end = closingQuote(text, i);
      const string = JSON.parse(text.slice(i, end + 1)) as string;
      const frame = stack.at(-1);
      // A string in an object with no key pending is the next member's name.
      if (frame && !Array.isArray(frame.container) && frame.key === undefined) frame.key = string;
      else place(string, i, end + 1);
      i = end;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      let end = i + 1;
      while (end < text.length && /[0-9eE.+-]/.test(text[end]!)) end++;
      place(new LosslessNumber(text.slice(i, end)), i, end);
      i = end - 1;
    } else if (c === LOWER_T || c === LOWER_F || c === LOWER_N) {
      const literal = text.startsWith('true', i) ? true : text.startsWith('false', i) ? false : null;
      const length = literal === null ? 4 : literal ? 4 : 5;
      place(literal, i, i + length);
      i += length - 1;
    }
  }
  return root;
}

/**
 * A value as JSON text for a message, never throwing: JSON.stringify recurses, and a value
 * a server nested 100,000 levels deep overflows its stack.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return Array.isArray(value) ? '[an array nested too deep to show]' : '{an object nested too deep to show}';
  }
}

/** U+FEFF as the first character of a text: a byte order mark. */
export const BYTE_ORDER_MARK = '\ufeff';

/**
 * Nesting past which lossless-json's recursive parse is not used (a category list needs 3):
 * it overflows its stack at a few thousand levels.
 */
export const RECURSIVE_DEPTH = 512;

/**
 * One pass over the text, outside strings (a 13 MB list: about 60 ms, as much as the
 * native parse; two passes, one of them a regex, took twice that):
 * - `depth`: how deeply arrays and objects nest;
 * - `inexact`: whether a number token might not survive as a double: 16 or more digits
 *   (2^53 has 16), a fraction or an exponent.
 * Malformed text is scanned as it comes; the parser judges it.
 */
function scanJson(text: string): { depth: number; inexact: boolean } {
  let depth = 0;
  let deepest = 0;
  let inexact = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > deepest) deepest = depth;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    } else if (!inexact && (c === MINUS || (c >= ZERO && c <= NINE))) {
      let digits = 0;
      for (; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d >= ZERO && d <= NINE) digits++;
        else if (d === DOT || d === LOWER_E || d === UPPER_E) inexact = true;
        else if (d !== MINUS && d !== PLUS) break;
        if (inexact) break;
      }
      if (digits >= 16) inexact = true;
      i--;
    }
  }
  return { depth: deepest, inexact };
}

/** The index of the quote that closes the string opened at `open` (escapes skipped), or the text's length. */
function closingQuote(text: string, open: number): number {
  let i = open + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) break;
  }
  return i;
}

const [QUOTE, BACKSLASH, MINUS, PLUS, DOT, ZERO, NINE, LOWER_E, UPPER_E] = ['"', '\\', '-', '+', '.', '0', '9', 'e', 'E'].map((c) =>
  c.charCodeAt(0),
) as [number, number, number, number, number, number, number, number, number];
const [OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE, LOWER_T, LOWER_F, LOWER_N] = ['[', ']', '{', '}', 't', 'f', 'n'].map((c) => c.charCodeAt(0)) as [number, number, number, number, number, number, number];

/** The plain view: every LosslessNumber becomes a JavaScript number (possibly rounded). */
function toPlain(node: unknown): unknown {
  if (isLosslessNumber(node)) return Number((node as LosslessNumber).value);
  if (Array.isArray(node)) return node.map(toPlain);
  if (node !== null && typeof node === 'object') {
    // fromEntries defines own properties, so a "__proto__" key stays data.
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, toPlain(child)]));
  }
  return node;
}

/** The bigints of the first integers, made once: every id of every list judged is one, and making each anew was a tenth of judging a capture. */
const SMALL_INTEGERS: readonly bigint[] = Array.from({ length: 4096 }, (_, i) => BigInt(i));

/**
 * The exact integer held by a tree node, or `undefined` when the node is not a number or
 * not an integer (a string id, `1.5`, `null` ...). A plain number in a tree is exact: the
 * fast path only keeps numbers that no double rounds.
 */
export function exactInteger(node: unknown): bigint | undefined {
  if (typeof node === 'number') return Number.isInteger(node) ? (node >= 0 && node < SMALL_INTEGERS.length ? SMALL_INTEGERS[node]! : BigInt(node)) : undefined;
  return isLosslessNumber(node) ? integerFromLexeme((node as LosslessNumber).value) : undefined;
}

/** Characters of a lexeme shown before it is shortened. */
const SHOWN = 20;

/** The JSON lexeme of a number node (a long one shortened, with its length), or a JSON rendering of any other node. */
export function lexemeOf(node: unknown): string {
  if (typeof node === 'number') return String(node);
  if (isLosslessNumber(node)) {
    const { value } = node as LosslessNumber;
    return value.length > 3 * SHOWN ? `${value.slice(0, SHOWN)}…(${value.length} digits)` : value;
  }
  return node === undefined ? 'absent' : jsonText(node);
}

/** Characters of a node's JSON text shown by {@link lexemeAt}. */
const SHOWN_AT = 80;

/**
 * The JSON text of what a JSON Pointer (RFC 6901) points at in a body: `"1"` for `/0/id`
 * in `[{"id":"1"}]`, numbers as written, long texts shortened. Undefined when the body is
 * not JSON, the pointer is the whole document (`''`), or it points at nothing.
 */
export function lexemeAt(body: string, pointer: string): string | undefined {
  if (pointer === '') return undefined;
  const parsed = parseJson(body);
  if (!parsed.ok) return undefined;
  let node: unknown;
  try {
    node = jsonpointer.get(parsed.json.tree as object, pointer);
  } catch {
    return undefined; // a pointer that is not one (jsonpointer throws on a malformed one)
  }
  if (node === undefined) return undefined;
  const text = lexemeOf(node);
  return text.length > SHOWN_AT ? `${text.slice(0, SHOWN_AT)}…` : text;
}
