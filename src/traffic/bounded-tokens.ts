/**
 * A stage of the capture's token stream (stream-json's parser, with keys, strings and
 * numbers streamed in pieces) that packs each key, string and number itself, up to a
 * bound: a body of 300 MB in one string, or a number of a million digits, is counted and
 * dropped, never held. What passes its bound is replaced by a {@link CutValue} that says
 * how long it was; an entry that, counted in all, passes its own bound (a body written as
 * millions of `params`) is closed where it stands and marked, and the rest of it dropped.
 * So one entry in memory at a time means a bounded one.
 */
import { getManyValues, isMany, many, none } from 'stream-chain';

/** The member name of a value the reader did not keep: its own, so no capture can hold it by chance. */
export const CUT = '__petstoreConformanceCut';

/** A string (or number) longer than its bound, in place of its value: how many characters it had. */
export interface CutValue {
  [CUT]: number;
}

/** Whether a value read from a capture stands for one that was not kept. */
export function isCut(value: unknown): value is CutValue {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[CUT] === 'number';
}

/** A token of stream-json's parser. */
interface Token {
  name: string;
  value?: string;
}

/** Bounds of one capture's values (characters). */
export interface TokenBounds {
  /** Longest string or number kept. */
  valueChars: number;
  /**
   * Most characters, counted over every key and value of one value at depth `entryDepth`
   * (each token at least {@link TOKEN_WEIGHT}, for what a JavaScript value costs beyond
   * its characters).
   */
  entryChars: number;
  /** The depth of the values each bounded in all: 4 for a HAR's entries (the document, `log`, `entries`, the entry). */
  entryDepth: number;
}

/** Pieces of one value held apart at most before they are joined. */
const MAX_PARTS = 1024;

/** What a token weighs at least in an entry's count (characters): a value in memory costs some tens of bytes whatever its length. */
export const TOKEN_WEIGHT = 16;

/**
 * The stage, for stream-chain: takes the parser's tokens, gives packed ones
 * (`keyValue`, `stringValue`, `numberValue`) and the structure, within the bounds.
 * @throws nothing; a malformed token stream is the parser's to reject.
 */
export function boundedTokens(bounds: TokenBounds): (token: Token) => unknown {
  /** The kinds of the containers open: `{` or `[`. */
  const open: string[] = [];
  /** The key, string or number being read: its parts while within the bound (the older ones joined in blocks), and its length. */
  let parts: string[] = [];
  let blocks: string[] = [];
  let chars = 0;
  /** Characters of the current bounded value so far. */
  let weight = 0;
  /** While an entry that passed its bound is dropped: the depth at which it ends. */
  let dropping = 0;

  const packed = (name: string) => {
    const value = chars > bounds.valueChars ? undefined : blocks.join('') + parts.join('');
    const length = chars;
    parts = [];
    blocks = [];
    chars = 0;
    if (value !== undefined) return { name, value };
    // A key too long keeps its place under a name no reader looks for.
    if (name === 'keyValue') return { name, value: CUT };
    return many([{ name: 'startObject' }, { name: 'keyValue', value: CUT }, { name: 'numberValue', value: String(length) }, { name: 'endObject' }]);
  };

  return (token: Token) => {
    switch (token.name) {
      case 'startObject':
      case 'startArray': {
        open.push(token.name === 'startObject' ? '{' : '[');
        if (open.length === bounds.entryDepth) weight = 0;
        break;
      }
      case 'endObject':
      case 'endArray': {
        open.pop();
        if (dropping > 0) {
          if (open.length >= dropping) return none;
          dropping = 0;
        }
        return token;
      }
      case 'startKey':
      case 'startString':
      case 'startNumber':
        return none;
      case 'stringChunk':
      case 'numberChunk': {
        const piece = token.value ?? '';
        chars += piece.length;
        if (dropping === 0 && chars <= bounds.valueChars) {
          parts.push(piece);
          // A string with an escape every few characters comes in millions of tiny pieces: joined in blocks as they come, they weigh their characters, not a string object each.
          if (parts.length >= MAX_PARTS) {
            blocks.push(parts.join(''));
            parts = [];
          }
        } else {
          parts = [];
          blocks = [];
        }
        return none;
      }
      case 'endKey':
      case 'endString':
      case 'endNumber': {
        if (dropping > 0) {
          parts = [];
          blocks = [];
          chars = 0;
          return none;
        }
        weight += Math.max(TOKEN_WEIGHT, Math.min(chars, bounds.valueChars));
        const name = token.name === 'endKey' ? 'keyValue' : token.name === 'endString' ? 'stringValue' : 'numberValue';
        const out = packed(name);
        return open.length >= bounds.entryDepth && weight > bounds.entryChars ? cutEntry(out) : out;
      }
      default:
        // nullValue, trueValue, falseValue
        if (dropping > 0) return none;
        weight += TOKEN_WEIGHT;
        return open.length >= bounds.entryDepth && weight > bounds.entryChars ? cutEntry(token) : token;
    }
    // A container opened.
    if (dropping > 0) return none;
    weight += TOKEN_WEIGHT;
    return open.length > bounds.entryDepth && weight > bounds.entryChars ? cutEntry(token, true) : token;
  };

  /**
   * Ends the entry where it stands: the containers opened inside it are closed, a mark
   * says how much it had held so far, and everything up to its end is dropped.
   * @param opening the token was a container's start (already counted open): it is not emitted.
   */
  function cutEntry(last: unknown, opening = false): unknown {
    const tokens: unknown[] = opening ? [] : [last];
    const inside = open.slice(bounds.entryDepth, opening ? -1 : undefined);
    for (const kind of inside.reverse()) tokens.push({ name: kind === '{' ? 'endObject' : 'endArray' });
    tokens.push({ name: 'keyValue', value: CUT }, { name: 'numberValue', value: String(weight) });
    dropping = bounds.entryDepth;
    return many(tokens.flatMap((token) => (isMany(token) ? getManyValues(token) : [token])));
  }
}
